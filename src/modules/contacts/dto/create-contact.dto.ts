import { IsBoolean, IsObject, IsOptional } from 'class-validator';
import { EmailField } from './email-field';

/** `email` presence is checked by the service (the spec's short 400 body), its format here. */
export class CreateContactDto {
  @IsOptional()
  @EmailField()
  email?: string;

  @IsOptional()
  @IsBoolean()
  subscribed?: boolean;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}
