import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { RECIPIENT_FILTERS, type RecipientFilter, TIMELINE_INTERVALS, type TimelineInterval } from '../campaign-results.rows';

export class CampaignRecipientsQuery {
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional() @Matches(/^0*[1-9]\d*$/, { message: 'limit must be an integer >= 1' }) limit?: string;
  @ApiPropertyOptional({ description: '`cursor` of the previous page', type: String })
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
  @ApiPropertyOptional({ description: 'Only recipients its stats counter counts (`clicked`: the `clickedCount` recipients, …)', enum: RECIPIENT_FILTERS })
  @IsOptional() @IsIn(RECIPIENT_FILTERS, { message: `status must be one of: ${RECIPIENT_FILTERS.join(', ')}` }) status?: RecipientFilter;
  @ApiPropertyOptional({ description: 'Case-insensitive substring of the recipient address', type: String })
  @IsOptional() @IsString() @MaxLength(320) search?: string;
}

export class CampaignTimelineQuery {
  @ApiPropertyOptional({ description: 'Bucket width (default hour); buckets start on UTC boundaries', enum: TIMELINE_INTERVALS })
  @IsOptional() @IsIn(TIMELINE_INTERVALS, { message: 'interval must be hour or day' }) interval?: TimelineInterval;
}
