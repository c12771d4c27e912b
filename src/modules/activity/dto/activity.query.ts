import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Query values stay strings here: the service answers bad ones with decisions.md's 400. */
export class ListActivityQuery {
  @IsOptional() @IsString() @MaxLength(400) types?: string;
  @IsOptional() @IsString() @MaxLength(64) contactId?: string;
  @IsOptional() @IsString() @MaxLength(64) campaignId?: string;
  @IsOptional() limit?: string;
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
}

export class RangeQuery {
  @IsOptional() @IsString() @MaxLength(64) from?: string;
  @IsOptional() @IsString() @MaxLength(64) to?: string;
}

export class TimeseriesQuery extends RangeQuery {
  @IsOptional() @IsString() @MaxLength(16) interval?: string;
}

export class RecentCountQuery {
  @IsOptional() minutes?: string;
}

export class TopCampaignsQuery extends RangeQuery {
  @IsOptional() @IsString() @MaxLength(16) metric?: string;
  @IsOptional() limit?: string;
}

export class TopEventsQuery extends RangeQuery {
  @IsOptional() limit?: string;
}
