import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';
import { MAX_TEMPLATE_BODY } from './create-template.dto';

const NO_LINE_BREAK = /^[^\r\n]*$/;
const present = (key: string) => (o: Record<string, unknown>) => o[key] !== undefined;

/** Every field optional; the required ones may change but not be cleared (null is a 422). */
export class UpdateTemplateDto {
  @ApiPropertyOptional({ description: 'Name', type: String })
  @ValidateIf(present('name')) @IsString() @MinLength(1) @MaxLength(200) name?: string;
  @ApiPropertyOptional({ description: 'Free-text description', type: String, nullable: true })
  @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @ValidateIf(present('subject'))
  @IsString()
  @MinLength(1)
  @MaxLength(998)
  @Matches(NO_LINE_BREAK, { message: 'subject must not contain line breaks' })
  @ApiPropertyOptional({ description: 'Subject line (Liquid template)', type: String })
  subject?: string;
  @ApiPropertyOptional({ description: 'HTML body (Liquid template)', type: String })
  @ValidateIf(present('body')) @IsString() @MinLength(1) @MaxLength(MAX_TEMPLATE_BODY) body?: string;
  @ApiPropertyOptional({ description: 'Sender address (on a verified domain)', type: String })
  @ValidateIf(present('from')) @IsEmail({}, { message: 'from must be an email address' }) from?: string;
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(NO_LINE_BREAK, { message: 'fromName must not contain line breaks' })
  @ApiPropertyOptional({ description: 'Sender display name', type: String, nullable: true })
  fromName?: string | null;
  @ApiPropertyOptional({ description: 'Reply-To address', type: String, nullable: true })
  @IsOptional() @IsEmail({}, { message: 'replyTo must be an email address' }) replyTo?: string | null;
  @ApiPropertyOptional({ description: 'TRANSACTIONAL, MARKETING or HEADLESS', enum: TEMPLATE_TYPES })
  @ValidateIf(present('type')) @IsIn(TEMPLATE_TYPES) type?: TemplateType;
}
