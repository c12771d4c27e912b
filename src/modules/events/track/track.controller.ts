import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CurrentProject, PublicOrSecretKey, SecretKey } from '../../auth/auth.decorators';
import { Idempotent } from '../../../platform/http/idempotency/idempotent.decorator';
import { TrackEventDto } from '../dto/track-event.dto';
import { TrackService } from './track.service';

@Controller()
export class TrackController {
  constructor(private readonly tracking: TrackService) {}

  @Post('v1/track')
  @HttpCode(200)
  @PublicOrSecretKey()
  @Idempotent()
  async track(@CurrentProject() projectId: string, @Body() dto: TrackEventDto) {
    return { success: true, data: await this.tracking.track(projectId, dto) };
  }

  /** Dashboard alias of /v1/track (secret key or session), same body and response. */
  @Post('events/track')
  @HttpCode(200)
  @SecretKey()
  @Idempotent()
  async trackFromDashboard(@CurrentProject() projectId: string, @Body() dto: TrackEventDto) {
    return { success: true, data: await this.tracking.track(projectId, dto) };
  }
}
