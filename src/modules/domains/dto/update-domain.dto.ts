import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';

/** Warm-up settings (docs/delivery-control.md, "Domain warm-up"); fields left out keep their values. */
export class DomainWarmupDto {
  @OptionalNotNull()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'Whether the daily caps apply; turning it on starts day 0 today (UTC)', type: Boolean })
  enabled?: boolean;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  @ApiPropertyOptional({ description: 'Cap of day 0 (default 50)', type: Number, minimum: 1, maximum: 1_000_000 })
  startPerDay?: number;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100)
  @ApiPropertyOptional({ description: 'Growth of the cap per day, in percent (default 50): day n allows startPerDay × (1 + growthPercent/100)^n', type: Number, minimum: 1, maximum: 100 })
  growthPercent?: number;

  /** `null` removes the ceiling. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  @ApiPropertyOptional({ description: 'Ceiling of the daily cap; the warm-up is complete on the first day that reaches it. null: no ceiling', type: Number, nullable: true, minimum: 1, maximum: 10_000_000 })
  maxPerDay?: number | null;
}

export class UpdateDomainDto {
  @IsDefined({ message: 'warmup is required' })
  @IsObject({ message: 'warmup must be an object {enabled?, startPerDay?, growthPercent?, maxPerDay?}' })
  @ValidateNested()
  @Type(() => DomainWarmupDto)
  @ApiProperty({ type: () => DomainWarmupDto, description: 'Warm-up: daily caps for campaign and workflow mail from the domain' })
  warmup!: DomainWarmupDto;
}
