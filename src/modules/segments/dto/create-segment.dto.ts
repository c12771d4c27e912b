import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { FilterTreeSchema } from '../../filters';

/** `name` presence and the DYNAMIC `condition` object are checked by the service (the spec's short 400 body); the tree by the filter validator (422). */
export class CreateSegmentDto {
  @ApiPropertyOptional({ description: 'Name, at most 100 characters; required (a missing name is a 400)', type: String, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'Free-text description, at most 500 characters', type: String, maxLength: 500, nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: 'DYNAMIC (default: members are the contacts matching `condition`) or STATIC (members added by email); cannot change later', enum: ['DYNAMIC', 'STATIC'] })
  @IsOptional()
  @IsIn(['DYNAMIC', 'STATIC'])
  type?: 'DYNAMIC' | 'STATIC';

  @ApiPropertyOptional({ description: 'Filter tree; required for a DYNAMIC segment (400 without it, 422 naming each invalid part), ignored for a STATIC one', type: () => FilterTreeSchema })
  @Allow()
  condition?: unknown;

  @ApiPropertyOptional({ description: 'Emit `segment.<slug>.entry` and `.exit` events when contacts join or leave (default false)', type: Boolean })
  @IsOptional()
  @IsBoolean()
  trackMembership?: boolean;
}
