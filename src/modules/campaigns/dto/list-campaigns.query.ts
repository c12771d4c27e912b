import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';

export const CAMPAIGN_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];
export const MAX_PAGE_SIZE = 100;

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);

export class ListCampaignsQuery {
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) page?: number;
  /** Larger values are clamped to MAX_PAGE_SIZE rather than refused. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) pageSize?: number;
  /** Checked by the service: an unrecognised status is the spec's 400, not a 422. */
  @IsOptional() @IsString() status?: string;
  @IsOptional() @IsString() @MaxLength(200) search?: string;
  /** Unknown values fall back to the defaults, so these are not validated. */
  @IsOptional() @IsString() sort?: string;
  @IsOptional() @IsString() dir?: string;
}
