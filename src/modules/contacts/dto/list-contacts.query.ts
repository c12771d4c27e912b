import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { QueryBoolean } from '../../../platform/http/pagination';

/** `sort` and `dir` are free strings on purpose: unknown values fall back (spec), never 422. */
export class ListContactsQuery {
  @IsOptional() limit?: string;
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
  @IsOptional() @IsString() @MaxLength(320) search?: string;
  @IsOptional() @QueryBoolean() @IsBoolean({ message: 'subscribed must be true or false' }) subscribed?: boolean;
  @IsOptional() sort?: string;
  @IsOptional() dir?: string;
}
