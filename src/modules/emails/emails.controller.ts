import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../platform/http/idempotency/idempotent.decorator';
import { IdempotencyClaim, IdempotencyKeyClaim } from '../../platform/http/idempotency/idempotency-claim';
import { CurrentProject, SecretKey } from '../auth';
import { SEND_REQUEST_SCHEMA, SendRequest } from './send/send-request';
import { SendRequestPipe } from './send/send-request.pipe';
import { SendResult } from './send/send.response';
import { EmailsService } from './emails.service';
import { ApiEnvelope } from '../../platform/http/openapi-responses';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('emails')
@Controller('v1')
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @SecretKey()
  @Idempotent()
  @Post('send')
  @ApiOperation({ summary: 'Send an email' })
  @ApiErrors(
    [400, 'Malformed Idempotency-Key header'],
    [402, 'The monthly transactional email limit of the project would be passed'],
    [403, 'The project is disabled (PROJECT_DISABLED), or the sender domain is not a verified domain of the project (DOMAIN_NOT_VERIFIED)'],
    [404, 'No template with that id in the project'],
    [409, 'The Idempotency-Key was already used (IDEMPOTENCY_KEY_REUSED): the first request took effect'],
    422,
  )
  @HttpCode(200)
  @ApiBody({ schema: SEND_REQUEST_SCHEMA })
  @ApiEnvelope(200, SendResult, 'Queued for sending; recipients skipped by their subscription or suppression are listed')
  async send(
    @CurrentProject() projectId: string,
    @Body(SendRequestPipe) req: SendRequest,
    @IdempotencyKeyClaim() claim: IdempotencyClaim | undefined,
  ): Promise<{ success: true; data: SendResult }> {
    return { success: true, data: await this.emails.send(projectId, req, claim) };
  }
}
