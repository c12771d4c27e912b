import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';

export const TEMPLATE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];
export const MAX_PAGE_SIZE = 100;

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);

export class ListTemplatesQuery {
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) page?: number;
  /** Larger values are clamped to MAX_PAGE_SIZE rather than refused. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) pageSize?: number;
  @IsOptional() @IsIn(TEMPLATE_TYPES) type?: TemplateType;
  @IsOptional() @IsString() @MaxLength(200) search?: string;
  /** Unknown values fall back to the defaults (spec), so these are not validated. */
  @IsOptional() @IsString() sort?: string;
  @IsOptional() @IsString() dir?: string;
}
