import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { KeyPair } from '../api-keys';
import type { Project } from '../entities/project.entity';
import { type Retention, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, retentionOf } from '../retention/retention-policy';

const days = (what: string, byDefault: string) => ({ type: 'integer', nullable: true, minimum: RETENTION_MIN_DAYS, maximum: RETENTION_MAX_DAYS, description: `Days ${what} is kept; null: for good (default ${byDefault})` });

export class RetentionResponse {
  @ApiProperty({ ...days('an event', 'null'), type: 'integer' })
  eventsDays!: number | null;
  @ApiProperty({ ...days("an email's content (HTML, text, headers, attachments, variables; the subject stays)", '30'), type: 'integer' })
  emailContentDays!: number | null;
  @ApiProperty({ ...days('an email record', 'null'), type: 'integer' })
  emailsDays!: number | null;
  @ApiProperty({ ...days('a received (inbound) message', '30'), type: 'integer' })
  inboundDays!: number | null;
}

export class ProjectResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Name', type: String })
  name!: string;
  @ApiPropertyOptional({ description: 'Public key pk_… (shown only after creation or rotation)', type: String })
  public?: string;
  @ApiPropertyOptional({ description: 'Secret key sk_… (shown only after creation or rotation)', type: String })
  secret?: string;
  @ApiPropertyOptional({ description: 'Signing secret for outbound webhooks (shown only after creation or rotation)', type: String })
  webhookSecret?: string;
  @ApiProperty({ description: 'First characters of the public key', type: String })
  publicPrefix!: string;
  @ApiProperty({ description: 'First characters of the secret key', type: String })
  secretPrefix!: string;
  @ApiProperty({ description: 'Only false: re-enables a disabled project', type: Boolean })
  disabled!: boolean;
  @ApiProperty({ description: 'Why the project was disabled', type: String, nullable: true })
  disabledReason!: string | null;
  @ApiProperty({ description: "Open/click tracking mode: ENABLED, DISABLED or MARKETING_ONLY", type: String })
  tracking!: string;
  @ApiProperty({ description: "Language of hosted pages and system emails", type: String })
  language!: string;
  @ApiProperty({
    description: "Sender used when a send names none (neither `from` nor a template's sender); null when unset",
    type: 'object',
    nullable: true,
    properties: { email: { type: 'string', description: 'Sender address' }, name: { type: 'string', nullable: true, description: 'Sender display name' } },
  })
  defaultFrom!: { email: string; name: string | null } | null;
  @ApiProperty({
    description: 'Double opt-in for sign-ups: enabled, the confirmation template (null: the built-in message) and where the page redirects once confirmed',
    type: 'object',
    properties: {
      enabled: { type: 'boolean' },
      templateId: { type: 'string', format: 'uuid', nullable: true },
      redirectUrl: { type: 'string', nullable: true },
    },
  })
  doubleOptIn!: { enabled: boolean; templateId: string | null; redirectUrl: string | null };
  @ApiProperty({ type: () => RetentionResponse, description: 'How long each kind of data is kept (docs/retention.md)' })
  retention!: Retention;
  @ApiPropertyOptional({ description: "Your role in the project (lists and reads by a member)", type: String })
  role?: string;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change (ISO 8601)', type: String })
  updatedAt!: string;
}

/** Keys appear in full only right after creation or rotation. */
export function toProjectResponse(project: Project, keys?: KeyPair, role?: string): ProjectResponse {
  return {
    id: project.id,
    name: project.name,
    ...(keys ? { public: keys.public, secret: keys.secret, webhookSecret: project.webhookSecret } : {}),
    publicPrefix: project.publicPrefix,
    secretPrefix: project.secretPrefix,
    disabled: project.disabled,
    disabledReason: project.disabledReason,
    tracking: project.tracking,
    language: project.language,
    defaultFrom: project.defaultFromAddress ? { email: project.defaultFromAddress, name: project.defaultFromName } : null,
    doubleOptIn: { enabled: project.doubleOptIn?.enabled === true, templateId: project.doubleOptIn?.templateId ?? null, redirectUrl: project.doubleOptIn?.redirectUrl ?? null },
    retention: retentionOf(project),
    ...(role ? { role } : {}),
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}
