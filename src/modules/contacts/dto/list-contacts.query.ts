import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { QueryBoolean } from '../../../platform/http/pagination';

/** `sort` and `dir` are free strings on purpose: unknown values fall back (spec), never 422. */
export class ListContactsQuery {
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional() limit?: string;
  @ApiPropertyOptional({ description: 'Cursor from the previous page (`cursor` of the response)', type: String })
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
  @ApiPropertyOptional({ description: 'Case-insensitive: a substring of the email, or words that begin words of one string-typed custom field (`GET /contacts/fields`, nested ones included)', type: String })
  @IsOptional() @IsString() @MaxLength(320) search?: string;
  @ApiPropertyOptional({ description: 'Whether the contact receives marketing email', type: Boolean })
  @IsOptional() @QueryBoolean() @IsBoolean({ message: 'subscribed must be true or false' }) subscribed?: boolean;
  @ApiPropertyOptional({ description: 'Double opt-in state: pending, confirmed, or none (never asked)', enum: ['pending', 'confirmed', 'none'] })
  @IsOptional() @IsIn(['pending', 'confirmed', 'none']) confirmation?: 'pending' | 'confirmed' | 'none';
  @ApiPropertyOptional({ description: 'Only members of this topic (slug; effective membership: the topic\'s default unless the contact chose). An unknown slug is a 422', type: String })
  @IsOptional() @IsString() @MaxLength(100) topic?: string;
  @ApiPropertyOptional({ description: 'true: only contacts snoozed now; false: only those not snoozed', type: Boolean })
  @IsOptional() @QueryBoolean() @IsBoolean({ message: 'snoozed must be true or false' }) snoozed?: boolean;
  @ApiPropertyOptional({ description: 'Sort field (unknown values fall back to the default)', type: String })
  @IsOptional() sort?: string;
  @ApiPropertyOptional({ description: 'Sort direction: asc or desc', type: String })
  @IsOptional() dir?: string;
}
