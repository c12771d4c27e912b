import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { CONTACT_ID } from '../../events';
import { EMAIL_STATUSES, EmailStatus } from '../entities/email.entity';

/** Filters are validated: an unknown status or a malformed id is a 422 naming the parameter. */
export class ListEmailsQuery {
  @ApiPropertyOptional({ description: 'Only emails in this status', enum: EMAIL_STATUSES })
  @IsOptional() @IsIn(EMAIL_STATUSES, { message: `status must be one of: ${EMAIL_STATUSES.join(', ')}` }) status?: EmailStatus;
  @ApiPropertyOptional({ description: "Only this campaign's emails (campaign id)", type: String, format: 'uuid' })
  @IsOptional() @IsUUID('all', { message: 'campaignId must be a UUID' }) campaignId?: string;
  @ApiPropertyOptional({ description: "Only this contact's emails (contact id, cnt_…)", type: String })
  @IsOptional() @IsString() @Matches(CONTACT_ID, { message: 'contactId must be a contact id (cnt_ and 32 hex digits)' }) contactId?: string;
  @ApiPropertyOptional({ description: 'Page size, 1-100 (default 20; larger values are clamped)', type: 'integer' })
  @IsOptional() limit?: string;
  @ApiPropertyOptional({ description: 'Cursor from the previous page (`cursor` of the response)', type: String })
  @IsOptional() @IsString() @MaxLength(2048) cursor?: string;
}
