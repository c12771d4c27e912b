import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';
import { MAX_TEMPLATE_BODY } from './create-template.dto';

const NO_LINE_BREAK = /^[^\r\n]*$/;
const present = (key: string) => (o: Record<string, unknown>) => o[key] !== undefined;

/** Every field optional; the required ones may change but not be cleared (null is a 422). */
export class UpdateTemplateDto {
  @ValidateIf(present('name')) @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @ValidateIf(present('subject'))
  @IsString()
  @MinLength(1)
  @MaxLength(998)
  @Matches(NO_LINE_BREAK, { message: 'subject must not contain line breaks' })
  subject?: string;
  @ValidateIf(present('body')) @IsString() @MinLength(1) @MaxLength(MAX_TEMPLATE_BODY) body?: string;
  @ValidateIf(present('from')) @IsEmail({}, { message: 'from must be an email address' }) from?: string;
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(NO_LINE_BREAK, { message: 'fromName must not contain line breaks' })
  fromName?: string | null;
  @IsOptional() @IsEmail({}, { message: 'replyTo must be an email address' }) replyTo?: string | null;
  @ValidateIf(present('type')) @IsIn(TEMPLATE_TYPES) type?: TemplateType;
}
