import { IsOptional, IsString, MaxLength } from 'class-validator';

export class ListEventsQuery {
  @IsOptional() limit?: string;
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(64) contactId?: string;
}
