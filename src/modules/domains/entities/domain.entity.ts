import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';

/** Persisted values. */
export type DomainStatus = 'pending' | 'verified';
export type DnsRecordType = 'TXT' | 'CNAME' | 'MX';
/** Persisted values: what a record is for, also how its DNS answer is matched. */
export type DnsRecordPurpose = 'dkim' | 'spf' | 'dmarc' | 'mail-from';

export interface DomainRecord {
  type: DnsRecordType;
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  purpose: DnsRecordPurpose;
  status: DomainStatus;
}

export interface SesIdentity {
  region: string;
  dkimTokens: string[];
  mailFromDomain: string;
}

@Entity('domains')
@Check('domains_status_check', `status IN ('pending', 'verified')`)
/** One owner per domain name across all projects: a claimed name is a 409 for everyone else. */
@Index('domains_domain_key', ['domain'], { unique: true })
@Index('domains_project_idx', ['projectId'])
/** `(last_checked_at NULLS FIRST)`: a null ordering TypeORM cannot declare, left to the migration. */
@Index('domains_last_checked_idx', { synchronize: false })
export class Domain {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'domains_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') domain: string;
  @Column('text', { default: 'pending' }) status: DomainStatus;
  @Column('text', { nullable: true }) dkimSelector: string | null;
  /** AES-256-GCM ciphertext (see dkim-keys.ts), never the PEM itself. */
  @Column('text', { nullable: true }) dkimPrivateKey: string | null;
  @Column('text', { nullable: true }) dkimPublicKey: string | null;
  @Column('jsonb', { default: [] }) records: DomainRecord[];
  @Column('jsonb', { nullable: true }) sesIdentity: SesIdentity | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) verifiedAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastCheckedAt: Date | null;
  /** Warm-up (warmup/warmup-cap.sql.ts): daily caps from `warmupStartPerDay`, growing `warmupGrowthPercent` a day, at most `warmupMaxPerDay`. */
  @Column('boolean', { default: false }) warmupEnabled: boolean;
  @Column('int', { default: 50 }) warmupStartPerDay: number;
  @Column('int', { default: 50 }) warmupGrowthPercent: number;
  @Column('int', { nullable: true }) warmupMaxPerDay: number | null;
  /** Day 0 is this instant's UTC date; null while warm-up is off. */
  @Column('timestamptz', { nullable: true }) warmupStartedAt: Date | null;
}
