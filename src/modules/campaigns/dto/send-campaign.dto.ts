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
  /** Recipient time zones (docs/delivery-control.md): an A/B campaign refuses `recipient` (its variants are compared sent at one time). */
  @ApiPropertyOptional({ description: '"recipient": each contact at scheduledFor in its own time zone; refused (422) for an A/B campaign', type: String, nullable: true })
  @Allow()
  timezone?: unknown;
}

/** The test send's body, shared with templates (`EmailPreviews`). */
export { TestSendDto as TestCampaignDto } from '../../emails/previews/previews.dto';
