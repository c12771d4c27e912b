import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../platform/http/idempotency/idempotent.decorator';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { SendRequest } from './send/send-request';
import { SendRequestPipe } from './send/send-request.pipe';
import type { SendResult } from './send/send.response';
import { EmailsService } from './emails.service';

@ApiTags('send')
@Controller('v1')
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @SecretKey()
  @Idempotent()
  @Post('send')
  @HttpCode(200)
  async send(@CurrentProject() projectId: string, @Body(SendRequestPipe) req: SendRequest): Promise<{ success: true; data: SendResult }> {
    return { success: true, data: await this.emails.send(projectId, req) };
  }
}
