import { EmailField, NO_CONTROL_CHARS } from '../../contacts/dto/email-field';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { isReservedEventName } from '../reserved-names';

@ValidatorConstraint({ name: 'notReservedEvent' })
class NotReservedEvent implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value !== 'string' || !isReservedEventName(value);
  }
  defaultMessage(): string {
    return 'event is a reserved name (email.*, contact.subscribed, contact.unsubscribed, segment.<slug>.entry|exit)';
  }
}


export class TrackEventDto {
  @IsDefined({ message: 'email is required' })
  @EmailField()
  email: string;

  @IsDefined({ message: 'event is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(NO_CONTROL_CHARS, { message: 'event must not contain control characters' })
  @Matches(/\S/, { message: 'event must not be blank' })
  @Validate(NotReservedEvent, { context: { code: 'reserved_event' } })
  event: string;

  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}
