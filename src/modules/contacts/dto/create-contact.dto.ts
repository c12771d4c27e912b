import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional } from 'class-validator';
import { EmailField } from './email-field';
import { DoubleOptInField } from './double-opt-in-field';

/** `email` presence is checked by the service (the spec's short 400 body), its format here. */
export class CreateContactDto {
  @IsOptional()
  @EmailField()
  @ApiPropertyOptional({ description: 'Email address', type: String, format: 'email' })
  email?: string;

  @IsOptional()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'Whether the contact receives marketing email', type: Boolean })
  subscribed?: boolean;

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ description: 'Custom contact data: keys and JSON values (see docs/api.md "Custom data")', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  @DoubleOptInField()
  doubleOptIn?: boolean;

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ description: 'Topic choices by topic slug: true subscribes, false leaves, null removes the choice (the topic\'s default applies); other topics stay. An unknown slug is a 422', type: 'object', additionalProperties: { type: 'boolean', nullable: true } })
  topics?: Record<string, unknown>;
}
