import { Allow, IsEmail } from 'class-validator';

export class SendCampaignDto {
  /** Any value a date parser accepts (string or epoch milliseconds); omitted or null sends now. Parsed by the service (400 when unparseable). */
  @Allow() scheduledFor?: unknown;
}

export class TestCampaignDto {
  @IsEmail({}, { message: 'email must be an email address' }) email: string;
}
