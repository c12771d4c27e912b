import { IsBoolean, IsObject, IsOptional } from 'class-validator';
import { EmailField } from './email-field';

export class UpdateContactDto {
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
