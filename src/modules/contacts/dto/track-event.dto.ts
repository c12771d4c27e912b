import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmailField, NO_CONTROL_CHARS } from './email-field';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { isReservedEventName } from '../../events';
import { DoubleOptInField } from './double-opt-in-field';

@ValidatorConstraint({ name: 'notReservedEvent' })
class NotReservedEvent implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value !== 'string' || !isReservedEventName(value);
  }
  defaultMessage(): string {
    return 'event is a reserved name (email.*, contact.subscribed, contact.unsubscribed, contact.confirmed, contact.snoozed, contact.topic.subscribed|unsubscribed, segment.<slug>.entry|exit)';
  }
}


export class TrackEventDto {
  @IsDefined({ message: 'email is required' })
  @EmailField()
  @ApiProperty({ description: 'Email address', type: String })
  email: string;

  @IsDefined({ message: 'event is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(NO_CONTROL_CHARS, { message: 'event must not contain control characters' })
  @Matches(/\S/, { message: 'event must not be blank' })
  @Validate(NotReservedEvent, { context: { code: 'reserved_event' } })
  @ApiProperty({ description: 'Event name (1-200 characters, not a reserved name)', type: String })
  event: string;

  @IsOptional()
  @IsBoolean()
  @ApiPropertyOptional({ description: 'Whether the contact receives marketing email', type: Boolean })
  subscribed?: boolean;

  @IsOptional()
  @IsBoolean()
  @ApiPropertyOptional({ description: "Plunk's flag: with true, `subscribed` applies to a new contact only and an existing contact keeps its state", type: Boolean })
  preserveExistingSubscription?: boolean;

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ description: 'Custom contact data: keys and JSON values (see docs/api.md "Custom data")', type: 'object', additionalProperties: true })
  data?: Record<string, unknown>;

  @DoubleOptInField()
  doubleOptIn?: boolean;

  @IsOptional()
  @IsObject()
  @ApiPropertyOptional({ description: 'Topic choices by topic slug: true subscribes, false leaves, null removes the choice; other topics stay. An unknown slug is a 422', type: 'object', additionalProperties: { type: 'boolean', nullable: true } })
  topics?: Record<string, unknown>;
}
