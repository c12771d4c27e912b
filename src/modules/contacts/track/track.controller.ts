import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, PublicOrSecretKey, SecretKey } from '../../auth';
import type { Principal } from '../../auth';
import { Idempotent } from '../../../platform/http/idempotency/idempotent.decorator';
import { IdempotencyClaim, IdempotencyKeyClaim } from '../../../platform/http/idempotency/idempotency-claim';
import { TrackEventDto } from '../dto/track-event.dto';
import { TrackService } from './track.service';
import { ApiEnvelope } from '../../../platform/http/openapi-responses';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../platform/http/openapi-errors';

const TRACKED = { type: 'object', properties: { contact: { type: 'string', description: 'Contact id' }, event: { type: 'string', description: 'Event id' }, timestamp: { type: 'string' } } };

@ApiTags('events')
@Controller()
export class TrackController {
  constructor(private readonly tracking: TrackService) {}

  @Post('v1/track')
  @ApiOperation({ summary: 'Track an event' })
  @ApiErrors([400, 'Malformed Idempotency-Key header'], [409, 'The Idempotency-Key was already used (IDEMPOTENCY_KEY_REUSED): the first request took effect'], 422)
  @HttpCode(200)
  @PublicOrSecretKey()
  @Idempotent()
  @ApiEnvelope(200, TRACKED, 'The event was stored and the contact upserted')
  async track(
    @CurrentProject() projectId: string,
    @CurrentPrincipal() principal: Principal,
    @Body() dto: TrackEventDto,
    @IdempotencyKeyClaim() claim: IdempotencyClaim | undefined,
  ) {
    return { success: true, data: await this.tracking.track(projectId, dto, claim, principal.via === 'public_key') };
  }

  /** Dashboard alias of /v1/track (secret key or session), same body and response. */
  @Post('events/track')
  @ApiOperation({ summary: 'Track an event (dashboard)' })
  @ApiErrors([400, 'Malformed Idempotency-Key header'], [409, 'The Idempotency-Key was already used (IDEMPOTENCY_KEY_REUSED): the first request took effect'], 422)
  @HttpCode(200)
  @SecretKey()
  @Idempotent()
  @ApiEnvelope(200, TRACKED, 'The event was stored and the contact upserted')
  async trackFromDashboard(@CurrentProject() projectId: string, @Body() dto: TrackEventDto, @IdempotencyKeyClaim() claim: IdempotencyClaim | undefined) {
    return { success: true, data: await this.tracking.track(projectId, dto, claim) };
  }
}
