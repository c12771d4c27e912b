import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

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
export class Domain {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') domain: string;
  @Column('text') status: DomainStatus;
  @Column('text', { nullable: true }) dkimSelector: string | null;
  /** AES-256-GCM ciphertext (see dkim-keys.ts), never the PEM itself. */
  @Column('text', { nullable: true }) dkimPrivateKey: string | null;
  @Column('text', { nullable: true }) dkimPublicKey: string | null;
  @Column('jsonb') records: DomainRecord[];
  @Column('jsonb', { nullable: true }) sesIdentity: SesIdentity | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) verifiedAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastCheckedAt: Date | null;
}
