import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MAX_PAGE } from './pagination';

/** `page` and `pageSize` of an offset list, kept as sent: `parseOffsetQuery` bounds `page` and clamps `pageSize`. */
export class OffsetPageQuery {
  @ApiPropertyOptional({ description: `Page number, 1-${MAX_PAGE} (default 1)`, type: 'integer' })
  @IsOptional() page?: string;
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional() pageSize?: string;
}
