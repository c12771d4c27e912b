import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Matches } from 'class-validator';
import { CONTACT_ID } from '../../events';

const CONTACT_ID_MESSAGE = 'contactId must be a contact id (cnt_ and 32 hex digits)';

export class PreviewAsContactDto {
  @ApiProperty({ description: 'The contact (`cnt_…`) of this project whose data the email is rendered with', type: String, pattern: '^cnt_[0-9a-f]{32}$' })
  @IsString({ message: 'contactId must be a string' })
  @Matches(CONTACT_ID, { message: CONTACT_ID_MESSAGE })
  contactId!: string;
}

export class TestSendDto {
  @ApiProperty({ description: 'Address that receives the one test copy (no contact is created)', type: String, format: 'email' })
  @IsEmail({}, { message: 'email must be an email address' })
  email!: string;

  @ApiPropertyOptional({ description: 'Render the copy with this contact (`cnt_…`) of the project; omitted, without contact data', type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'contactId must be a string' })
  @Matches(CONTACT_ID, { message: CONTACT_ID_MESSAGE })
  contactId?: string | null;
}

export class PreviewResponse {
  @ApiProperty({ description: 'The rendered subject', type: String }) subject!: string;
  @ApiProperty({ description: 'The rendered HTML, with the footer the service adds (MARKETING) and no tracking', type: String }) html!: string;
  @ApiProperty({ description: 'The text/plain part', type: String }) text!: string;
  @ApiProperty({ description: 'The headers the service adds (List-Unsubscribe for MARKETING/HEADLESS, Reply-To, custom headers)', type: 'object', additionalProperties: { type: 'string' } })
  headers!: Record<string, string>;
}

export class TestSendResponse {
  @ApiProperty({ type: Boolean, enum: [true] }) success!: true;
  @ApiProperty({ description: 'The test email (UUID); it carries `X-Test: true`, a `[Test] ` subject prefix, and counts in no statistic, usage or activity', type: String })
  emailId!: string;
}
