import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';

export const MAX_TEMPLATE_BODY = 512 * 1024;
const NO_LINE_BREAK = /^[^\r\n]*$/;

/**
 * Required fields are optional here on purpose: the spec answers a missing one with the short
 * `{error}` 400 (checked by the service), while a present but malformed value is a 422.
 */
export class CreateTemplateDto {
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @IsOptional()
  @IsString()
  @MaxLength(998)
  @Matches(NO_LINE_BREAK, { message: 'subject must not contain line breaks' })
  subject?: string;
  @IsOptional() @IsString() @MaxLength(MAX_TEMPLATE_BODY) body?: string;
  @IsOptional() @IsEmail({}, { message: 'from must be an email address' }) from?: string;
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(NO_LINE_BREAK, { message: 'fromName must not contain line breaks' })
  fromName?: string | null;
  @IsOptional() @IsEmail({}, { message: 'replyTo must be an email address' }) replyTo?: string | null;
  @IsOptional() @IsIn(TEMPLATE_TYPES) type?: TemplateType;
}
