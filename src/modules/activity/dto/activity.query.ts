import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ACTIVITY_TYPES } from '../activity.types';

/** Query values stay strings here: the service answers bad ones with 400 (docs/decisions.md#activity-and-analytics). */
export class ListActivityQuery {
  @ApiPropertyOptional({ description: `Comma-separated activity types (${ACTIVITY_TYPES.join(', ')}); an unknown one is a 400`, type: String })
  @IsOptional() @IsString() @MaxLength(400) types?: string;
  @ApiPropertyOptional({ description: "Only this contact's activity (contact id)", type: String })
  @IsOptional() @IsString() @MaxLength(64) contactId?: string;
  @ApiPropertyOptional({ description: "Only this campaign's emails (campaign id; a malformed id matches nothing)", type: String })
  @IsOptional() @IsString() @MaxLength(64) campaignId?: string;
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional() limit?: string;
  @ApiPropertyOptional({ description: 'Cursor from the previous page (`cursor` of the response)', type: String })
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
}

export class RangeQuery {
  @ApiPropertyOptional({ description: 'Start of the range, ISO 8601 (default: 30 days before `to`); an invalid date is a 400', type: String, format: 'date-time' })
  @IsOptional() @IsString() @MaxLength(64) from?: string;
  @ApiPropertyOptional({ description: 'End of the range, ISO 8601 (default: now); an invalid date is a 400', type: String, format: 'date-time' })
  @IsOptional() @IsString() @MaxLength(64) to?: string;
}

export class TimeseriesQuery extends RangeQuery {
  @ApiPropertyOptional({ description: 'Bucket size (default day); hour allows a range of at most one year', enum: ['hour', 'day'] })
  @IsOptional() @IsString() @MaxLength(16) interval?: string;
}

export class RecentCountQuery {
  @ApiPropertyOptional({ description: 'Window in minutes, 1-10080 (default 60; larger values are clamped)', type: 'integer' })
  @IsOptional() minutes?: string;
}

export class TopCampaignsQuery extends RangeQuery {
  @ApiPropertyOptional({ description: 'Ranking metric (default opens)', enum: ['opens', 'clicks', 'sent'] })
  @IsOptional() @IsString() @MaxLength(16) metric?: string;
  @ApiPropertyOptional({ description: 'How many campaigns, 1-100 (default 10; larger values are clamped)', type: 'integer' })
  @IsOptional() limit?: string;
}

export class TopEventsQuery extends RangeQuery {
  @ApiPropertyOptional({ description: 'How many rows, 1-100 (larger values are clamped; default 10 for top-events, 100 for campaign-stats)', type: 'integer' })
  @IsOptional() limit?: string;
}

export class ContactExecutionsQuery {
  @ApiProperty({ description: 'The contact (id); a malformed or unknown one has none', type: String })
  @IsString() @MaxLength(64) contactId!: string;
}
