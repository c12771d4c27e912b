import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsISO8601, IsObject, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../../platform/http/validation';
import { EmailField } from './email-field';

/**
 * `PATCH /contacts/:id`: the create fields, each changing only when sent. Not a subclass of
 * CreateContactDto: its `@IsOptional()` would let `null` through (class-validator merges them).
 */
export class UpdateContactDto {
  @OptionalNotNull()
  @EmailField()
  @ApiPropertyOptional({ description: 'New email address (409 when another contact has it)', type: String, format: 'email' })
  email?: string;

  @OptionalNotNull()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'Whether the contact receives marketing email', type: Boolean })
  subscribed?: boolean;

  @OptionalNotNull()
  @IsObject()
  @ApiPropertyOptional({ description: 'Keys to set (null deletes a key; see docs/api.md "Custom data")', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  @OptionalNotNull()
  @IsObject()
  @ApiPropertyOptional({ description: 'Topic choices by topic slug: true subscribes, false leaves, null removes the choice (the topic\'s default applies); other topics stay. An unknown slug is a 422', type: 'object', additionalProperties: { type: 'boolean', nullable: true } })
  topics?: Record<string, unknown>;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsISO8601({ strict: true })
  @ApiPropertyOptional({ description: 'Snooze: no marketing email until this time (ISO 8601, in the future); null ends a snooze', type: String, format: 'date-time', nullable: true })
  snoozedUntil?: string | null;
}
