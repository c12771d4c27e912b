import { Allow, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

export class UpdateSegmentDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  /** Accepted only when unchanged (422 otherwise). */
  @Allow()
  type?: unknown;

  @Allow()
  condition?: unknown;

  @IsOptional()
  @IsBoolean()
  trackMembership?: boolean;
}
