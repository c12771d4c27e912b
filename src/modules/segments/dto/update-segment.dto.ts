import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';
import { FilterTreeSchema } from '../../filters';

export class UpdateSegmentDto {
  @ApiPropertyOptional({ description: 'Name, 1-100 characters', type: String, maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'Free-text description, at most 500 characters; null clears it', type: String, maxLength: 500, nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  /** Accepted only when unchanged (422 otherwise). */
  @ApiPropertyOptional({ description: "The segment's current type; a different one is a 422 (the type is fixed at creation)", enum: ['DYNAMIC', 'STATIC'] })
  @Allow()
  type?: unknown;

  @ApiPropertyOptional({ description: 'New filter tree of a DYNAMIC segment (recounts its members; 422 naming each invalid part); ignored for a STATIC segment', type: () => FilterTreeSchema })
  @OptionalNotNull()
  @Allow()
  condition?: unknown;

  @ApiPropertyOptional({ description: 'Emit entry and exit events; switching it off forgets the stored membership, so switched on again every member enters anew', type: Boolean })
  @OptionalNotNull()
  @IsBoolean()
  trackMembership?: boolean;
}
