import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';

/** Persisted values: why an endpoint was disabled by the service (null: enabled, or disabled by hand). */
export const DISABLED_REASONS = ['GONE', 'FAILING'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

@Entity('webhook_endpoints')
@Check('webhook_endpoints_disabled_reason_check', `disabled_reason IN ('GONE', 'FAILING')`)
@Index('webhook_endpoints_project_created_idx', ['projectId', 'createdAt'])
/** The sweep's failing endpoints (few: only those without a success since their first failure). */
@Index('webhook_endpoints_failing_idx', ['failingSince'], { where: 'failing_since IS NOT NULL AND enabled' })
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'webhook_endpoints_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') url: string;
  @Column('text', { nullable: true }) description: string | null;
  /** Patterns over event names (event-patterns.ts). */
  @Column('text', { array: true }) events: string[];
  @Column('boolean', { default: true }) enabled: boolean;
  @Column('text', { nullable: true }) disabledReason: DisabledReason | null;
  /** AES-256-GCM ciphertext of the `whsec_…` secret (platform/crypto.ts, purpose `webhook-secret`). */
  @Column('text') secret: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  @Column('text', { nullable: true }) previousSecret: string | null;
  @Column('timestamptz', { nullable: true }) previousSecretExpiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastSuccessAt: Date | null;
  /** The first failed attempt since the last success (null once one succeeds): the auto-disable clock. */
  @Column('timestamptz', { nullable: true }) failingSince: Date | null;
  /** When it was created or last enabled: the fan-out sends it only events recorded since. */
  @Column('timestamptz', { default: () => 'now()' }) enabledSince: Date;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
