import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE, QueryInt } from '../../../platform/http/pagination';
import { CAMPAIGN_STATUSES } from '../entities/campaign.entity';

export const MAX_PAGE_SIZE = 100;

/** `page`/`pageSize` ask for the offset list, `limit`/`cursor` for the cursor list (never both: 422). */
export class ListCampaignsQuery {
  @ApiPropertyOptional({ description: 'Cursor list: page size, 1-100 (default 20; larger values are clamped). Not with page/pageSize', type: 'integer' })
  @IsOptional() limit?: string;
  @ApiPropertyOptional({ description: 'Cursor list: `cursor` of the previous page (it keeps that page\'s sort). Not with page/pageSize', type: String })
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
  @ApiPropertyOptional({ description: `Offset list: page number, 1-${MAX_PAGE} (default 1)`, type: Number })
  @IsOptional() @QueryInt() @IsInt() @Min(1) @Max(MAX_PAGE) page?: number;
  /** Larger values are clamped to MAX_PAGE_SIZE rather than refused. */
  @ApiPropertyOptional({ description: `Offset list: page size, 1-${MAX_PAGE_SIZE} (default 20; larger values are clamped)`, type: Number })
  @IsOptional() @QueryInt() @IsInt() @Min(1) pageSize?: number;
  /** Checked by the service: an unrecognised status is the spec's 400, not a 422. */
  @ApiPropertyOptional({ description: 'Only campaigns in this status', enum: CAMPAIGN_STATUSES })
  @IsOptional() @IsString() status?: string;
  @ApiPropertyOptional({ description: 'Case-insensitive substring filter on the name', type: String })
  @IsOptional() @IsString() @MaxLength(200) search?: string;
  /** Unknown values fall back to the defaults, so these are not validated. */
  @ApiPropertyOptional({ description: 'Sort field: name, createdAt or updatedAt (unknown values fall back to the default)', type: String })
  @IsOptional() @IsString() sort?: string;
  @ApiPropertyOptional({ description: 'Sort direction: asc or desc', type: String })
  @IsOptional() @IsString() dir?: string;
}
