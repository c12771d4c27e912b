import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE, QueryInt } from '../../../platform/http/pagination';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';

export const MAX_PAGE_SIZE = 100;

export class ListTemplatesQuery {
  @ApiPropertyOptional({ description: 'Page number, 1-1000000 (default 1)', type: Number })
  @IsOptional() @QueryInt() @IsInt() @Min(1) @Max(MAX_PAGE) page?: number;
  /** Larger values are clamped to MAX_PAGE_SIZE rather than refused. */
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: Number })
  @IsOptional() @QueryInt() @IsInt() @Min(1) pageSize?: number;
  @ApiPropertyOptional({ description: 'Only templates of this type', enum: TEMPLATE_TYPES })
  @IsOptional() @IsIn(TEMPLATE_TYPES) type?: TemplateType;
  @ApiPropertyOptional({ description: 'Case-insensitive substring filter', type: String })
  @IsOptional() @IsString() @MaxLength(200) search?: string;
  /** Unknown values fall back to the defaults (spec), so these are not validated. */
  @ApiPropertyOptional({ description: 'Sort field (unknown values fall back to the default)', type: String })
  @IsOptional() @IsString() sort?: string;
  @ApiPropertyOptional({ description: 'Sort direction: asc or desc', type: String })
  @IsOptional() @IsString() dir?: string;
}
