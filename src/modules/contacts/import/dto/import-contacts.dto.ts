import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The text parts of the import's multipart body (the file is read by the interceptor). */
export class ImportContactsDto {
  /** JSON text, parsed and checked against the file's header by `resolveColumnMapping`. */
  @IsOptional()
  @IsString()
  @MaxLength(200_000)
  mapping?: string;
}
