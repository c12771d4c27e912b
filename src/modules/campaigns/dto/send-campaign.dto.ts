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

  @ApiPropertyOptional({
    description:
      '"recipient": scheduledFor is a wall-clock time without offset (2026-12-01T09:00:00) and each contact gets the email at that time in its own `data.timezone` (fallbackTimezone when missing or unknown). Other values: 422; refused (422) for an A/B campaign, whose variants are compared sent at one time',
    enum: ['recipient'],
    nullable: true,
  })
  @Allow()
  timezone?: unknown;

  @ApiPropertyOptional({ description: 'With timezone "recipient": the IANA zone of contacts without a valid `data.timezone` (default UTC); unknown zone: 422', type: String, nullable: true })
  @Allow()
  fallbackTimezone?: unknown;
}

/** The test send's body, shared with templates (`EmailPreviews`). */
export { TestSendDto as TestCampaignDto } from '../../emails';
