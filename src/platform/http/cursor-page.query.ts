import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `limit` and `cursor` of a cursor list, kept as sent: `clampLimit` bounds `limit`, `decodeCursor` reads `cursor`. */
export class CursorPageQuery {
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional()
  limit?: string;
  @ApiPropertyOptional({ description: 'Cursor from the previous page (`cursor` of the response)', type: String })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;
}
