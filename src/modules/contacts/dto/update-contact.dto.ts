import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject } from 'class-validator';
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
}
