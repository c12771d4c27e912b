import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsISO8601, IsOptional } from 'class-validator';

export const REPLAY_MAX_AGE_MS = 7 * 86_400_000;
/** Deliveries one replay queues at most: a wider window is refused, so the caller narrows it. */
export const REPLAY_MAX_DELIVERIES = 10_000;

export class ReplayWebhookDto {
  @IsDefined({ message: 'since is required' })
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  @ApiProperty({ description: 'Start of the window (ISO 8601, inclusive), at most 7 days ago', type: String, format: 'date-time' })
  since: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  @ApiPropertyOptional({ description: 'End of the window (ISO 8601, exclusive; default now), after `since`', type: String, format: 'date-time' })
  until?: string;
}

export class ReplayResponse {
  @ApiProperty({ description: 'Deliveries queued: one per matching event recorded in the window', type: 'integer' })
  queued!: number;
}
