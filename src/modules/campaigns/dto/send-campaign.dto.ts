import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

export class SendCampaignDto {
  /** Any value a date parser accepts (string or epoch milliseconds); omitted or null sends now. Parsed by the service (400 when unparseable). */
  @ApiPropertyOptional({
    description: 'When to send: a date-time (ISO 8601 recommended) or epoch milliseconds; omitted, null or in the past sends now. Sending again while SCHEDULED reschedules. Unparseable: 400',
    oneOf: [{ type: 'string', format: 'date-time' }, { type: 'integer', description: 'Epoch milliseconds' }],
    nullable: true,
  })
  @Allow()
  scheduledFor?: unknown;
}

/** The test send's body, shared with templates (`EmailPreviews`). */
export { TestSendDto as TestCampaignDto } from '../../emails/previews/previews.dto';
