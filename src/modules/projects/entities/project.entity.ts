import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import type { StoredRetention } from '../retention/retention-policy';

/** The project's double opt-in setting (docs/consent.md), stored as one jsonb value. */
export interface DoubleOptInSetting {
  enabled: boolean;
  templateId?: string | null;
  redirectUrl?: string | null;
}

/** Persisted values. */
export type TrackingMode = 'ENABLED' | 'DISABLED' | 'MARKETING_ONLY';

@Entity('projects')
@Unique('projects_secret_key_hash_key', ['secretKeyHash'])
@Unique('projects_public_key_hash_key', ['publicKeyHash'])
export class Project {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') secretKeyHash: string;
  @Column('text') publicKeyHash: string;
  @Column('text') secretPrefix: string;
  @Column('text') publicPrefix: string;
  @Column('boolean', { default: false }) disabled: boolean;
  @Column('text', { nullable: true }) disabledReason: string | null;
  @Column('timestamptz', { nullable: true }) disabledAt: Date | null;
  @Column('text', { default: 'ENABLED' }) tracking: TrackingMode;
  @Column('text', { default: 'en' }) language: string;
  @Column('text') webhookSecret: string;
  /** Sender of a send that names none, itself or through its template; on a verified domain when set. */
  @Column('text', { nullable: true }) defaultFromAddress: string | null;
  @Column('text', { nullable: true }) defaultFromName: string | null;
  @Column('jsonb', { default: { enabled: false } }) doubleOptIn: DoubleOptInSetting;
  /** Days kept per kind of data, only the keys set (`retentionOf` fills in the defaults; docs/retention.md). */
  @Column('jsonb', { default: {} }) retention: StoredRetention;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
