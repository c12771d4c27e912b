import { IsOptional, IsString, MaxLength } from 'class-validator';

export class FieldValuesQuery {
  @IsOptional() limit?: string;
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
}
