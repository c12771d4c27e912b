import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Each category: a positive integer cap, `null` to remove it, absent to leave it unchanged. */
export class UpdateBillingLimitsDto {
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) workflows?: number | null;
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) campaigns?: number | null;
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) transactional?: number | null;
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) inbound?: number | null;
}
