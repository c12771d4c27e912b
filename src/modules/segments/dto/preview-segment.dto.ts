import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { FilterTreeSchema } from '../../filters';

/** A filter tree to count without saving anything (the dashboard's live count while editing). */
export class PreviewSegmentDto {
  @ApiProperty({ description: 'Filter tree, validated as a segment condition (400 without it, 422 naming each invalid part)', type: () => FilterTreeSchema })
  @Allow()
  condition?: unknown;
}
