import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../entities/template.entity';

export const MAX_TEMPLATE_BODY = 512 * 1024;
const NO_LINE_BREAK = /^[^\r\n]*$/;

/**
 * Required fields are optional here on purpose: the spec answers a missing one with the short
 * `{error}` 400 (checked by the service), while a present but malformed value is a 422.
 */
export class CreateTemplateDto {
  @ApiPropertyOptional({ description: 'Name', type: String })
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ description: 'Free-text description', type: String, nullable: true })
  @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @IsOptional()
  @IsString()
  @MaxLength(998)
  @Matches(NO_LINE_BREAK, { message: 'subject must not contain line breaks' })
  @ApiPropertyOptional({ description: 'Subject line (Liquid template)', type: String })
  subject?: string;
  @ApiPropertyOptional({ description: 'HTML body (Liquid template)', type: String })
  @IsOptional() @IsString() @MaxLength(MAX_TEMPLATE_BODY) body?: string;
  @ApiPropertyOptional({ description: 'Sender address (on a verified domain)', type: String })
  @IsOptional() @IsEmail({}, { message: 'from must be an email address' }) from?: string;
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(NO_LINE_BREAK, { message: 'fromName must not contain line breaks' })
  @ApiPropertyOptional({ description: 'Sender display name', type: String, nullable: true })
  fromName?: string | null;
  @ApiPropertyOptional({ description: 'Reply-To address', type: String, nullable: true })
  @IsOptional() @IsEmail({}, { message: 'replyTo must be an email address' }) replyTo?: string | null;
  @ApiPropertyOptional({ description: 'MARKETING (default; respects subscriptions), TRANSACTIONAL or HEADLESS', enum: TEMPLATE_TYPES })
  @IsOptional() @IsIn(TEMPLATE_TYPES) type?: TemplateType;
}
