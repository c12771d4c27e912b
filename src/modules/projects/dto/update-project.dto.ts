import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength, ValidateBy, ValidateNested } from 'class-validator';
import { IsHttpUrl, OptionalNotNull } from '../../../platform/http/validation';
import { PROJECT_LANGUAGES, TRACKING_MODES } from '../project-settings';
import { RETENTION_KINDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '../retention/retention-policy';
import type { TrackingMode } from '../entities/project.entity';

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** The sender of sends that name none (Plunk's SDK sends no `from`). */
export class DefaultFromDto {
  @IsDefined({ message: 'defaultFrom.email is required' })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'defaultFrom.email must be a valid email address' })
  @ApiProperty({ description: 'Sender address, on a verified domain of the project', type: String, format: 'email', maxLength: 320 })
  email!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(NO_CONTROL, { message: 'defaultFrom.name must not contain line breaks or control characters' })
  @ApiPropertyOptional({ description: 'Sender display name', type: String, nullable: true, maxLength: 200 })
  name?: string | null;
}

/** Double opt-in (docs/consent.md): the whole setting, replaced at once. */
export class DoubleOptInDto {
  @IsDefined({ message: 'doubleOptIn.enabled is required' })
  @IsBoolean()
  @ApiProperty({ description: 'Whether sign-ups through the public key (or calls with doubleOptIn: true) must confirm by email', type: Boolean })
  enabled!: boolean;

  @IsOptional()
  @IsUUID('all', { message: 'doubleOptIn.templateId must be a template id (UUID)' })
  @ApiPropertyOptional({ description: 'Template of the confirmation email; it must use {{confirmUrl}}. Omitted or null: the built-in localized message', type: String, format: 'uuid', nullable: true })
  templateId?: string | null;

  @IsOptional()
  @IsHttpUrl('doubleOptIn.redirectUrl')
  @ApiPropertyOptional({ description: 'Where the confirmation page sends the contact once confirmed (http or https); null: a thank-you page', type: String, nullable: true, maxLength: 2048 })
  redirectUrl?: string | null;
}

/** A retention period: whole days 1–3,650, or null to keep that data for good; left out, unchanged. */
const RetentionDays = (what: string, field: string) =>
  applyDecorators(
    IsOptional(),
    IsInt({ message: `retention.${field} must be a whole number of days (1-3650), or null to keep ${what} for good` }),
    Min(RETENTION_MIN_DAYS, { message: `retention.${field} must be at least ${RETENTION_MIN_DAYS} day` }),
    Max(RETENTION_MAX_DAYS, { message: `retention.${field} must be at most ${RETENTION_MAX_DAYS} days` }),
    ApiPropertyOptional({ description: `Days ${what} is kept (1-3650); null: kept for good; left out: unchanged`, type: 'integer', minimum: RETENTION_MIN_DAYS, maximum: RETENTION_MAX_DAYS, nullable: true }),
  );

/** How long each kind of data is kept (docs/retention.md); only the keys given change. */
export class RetentionDto {
  @RetentionDays('an event', 'eventsDays')
  eventsDays?: number | null;

  @RetentionDays("an email's content (HTML, text, headers, attachments, variables; the subject stays)", 'emailContentDays')
  emailContentDays?: number | null;

  @RetentionDays('an email record', 'emailsDays')
  emailsDays?: number | null;

  @RetentionDays('a received (inbound) message', 'inboundDays')
  inboundDays?: number | null;
}

/** `retention` takes only its four keys: a misspelt one would otherwise be dropped without a word. */
const OnlyRetentionKeys = () =>
  ValidateBy(
    {
      name: 'onlyRetentionKeys',
      validator: {
        validate: (value: unknown) => typeof value !== 'object' || value === null || Object.keys(value).every((k) => (RETENTION_KINDS as readonly string[]).includes(k)),
        defaultMessage: (args) => {
          const unknown = Object.keys((args?.value as object) ?? {}).filter((k) => !(RETENTION_KINDS as readonly string[]).includes(k));
          return `retention takes only ${RETENTION_KINDS.join(', ')}; unknown: ${unknown.join(', ')}`;
        },
      },
    },
    { context: { code: 'unrecognized_keys' } },
  );

export class UpdateProjectDto {
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @ApiPropertyOptional({ description: 'Project name, 1-100 characters', type: String, minLength: 1, maxLength: 100 })
  name?: string;

  @ApiPropertyOptional({ description: 'Open/click tracking: ENABLED, DISABLED, or MARKETING_ONLY (marketing email only)', enum: TRACKING_MODES })
  @OptionalNotNull()
  @IsIn(TRACKING_MODES)
  tracking?: TrackingMode;

  @OptionalNotNull()
  @IsIn(PROJECT_LANGUAGES)
  @ApiPropertyOptional({ description: 'Language of hosted pages and system emails', enum: PROJECT_LANGUAGES })
  language?: string;

  /** Only `false`: re-enables a project the service disabled (e.g. for its reputation). */
  @OptionalNotNull()
  @IsIn([false], { message: 'disabled can only be set to false (re-enable the project)' })
  @ApiPropertyOptional({ description: 'Only false: re-enables a disabled project', type: Boolean, enum: [false] })
  disabled?: false;

  /** `null` clears it (the one PATCH field that may be null). */
  @IsOptional()
  @IsObject({ message: 'defaultFrom must be an object {email, name?}, or null to clear it' })
  @ValidateNested()
  @Type(() => DefaultFromDto)
  @ApiPropertyOptional({
    type: () => DefaultFromDto,
    nullable: true,
    description: "Sender used when a send names none (neither `from` nor a template's sender); on a verified domain of the project; null clears it",
  })
  defaultFrom?: DefaultFromDto | null;

  @OptionalNotNull()
  @IsObject({ message: 'doubleOptIn must be an object {enabled, templateId?, redirectUrl?}' })
  @ValidateNested()
  @Type(() => DoubleOptInDto)
  @ApiPropertyOptional({ type: () => DoubleOptInDto, description: 'Double opt-in for sign-ups: {enabled, templateId?, redirectUrl?}' })
  doubleOptIn?: DoubleOptInDto;

  @OptionalNotNull()
  @IsObject({ message: 'retention must be an object {eventsDays?, emailContentDays?, emailsDays?, inboundDays?}' })
  @OnlyRetentionKeys()
  @ValidateNested()
  @Type(() => RetentionDto)
  @ApiPropertyOptional({ type: () => RetentionDto, description: 'How long each kind of data is kept, in days (null: for good); only the keys given change' })
  retention?: RetentionDto;
}
