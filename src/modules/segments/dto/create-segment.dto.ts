import { Allow, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** `name` presence and the DYNAMIC `condition` object are checked by the service (the spec's short 400 body); the tree by the filter validator (422). */
export class CreateSegmentDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @IsOptional()
  @IsIn(['DYNAMIC', 'STATIC'])
  type?: 'DYNAMIC' | 'STATIC';

  @Allow()
  condition?: unknown;

  @IsOptional()
  @IsBoolean()
  trackMembership?: boolean;
}
