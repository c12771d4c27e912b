import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

const cap = (what: string) => ({
  description: `Monthly cap on ${what} (UTC calendar month): a whole number 1-2000000000, null to remove the cap, absent to leave it unchanged`,
  type: 'integer' as const,
  minimum: 1,
  maximum: 2_000_000_000,
  nullable: true,
});

/** Each category: a positive integer cap, `null` to remove it, absent to leave it unchanged. */
export class UpdateBillingLimitsDto {
  @ApiPropertyOptional(cap('emails sent by workflow steps'))
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) workflows?: number | null;
  @ApiPropertyOptional(cap('campaign emails'))
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) campaigns?: number | null;
  @ApiPropertyOptional(cap('transactional emails (/v1/send)'))
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) transactional?: number | null;
  @ApiPropertyOptional(cap('inbound emails received'))
  @IsOptional() @IsInt() @Min(1) @Max(2_000_000_000) inbound?: number | null;
}
