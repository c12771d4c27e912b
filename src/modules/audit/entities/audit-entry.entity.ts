import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AuditAction, AuditActorType, AuditTargetType } from '../audit-actions';

/**
 * One entry of a project's audit log: who did what to it, kept `AUDIT_RETENTION_DAYS`. The actor
 * is copied in (id, and a user's email as it was): the log outlives keys and accounts.
 * `audit_log_project_at_idx (project_id, at DESC, id)` serves the list, newest first; its
 * descending key is one TypeORM cannot declare, so the migration holds it.
 */
@Entity('audit_log')
@Check('audit_log_actor_type_check', `actor_type IN ('user', 'key')`)
@Index('audit_log_project_at_idx', { synchronize: false })
/** The purge's scan, across projects. */
@Index('audit_log_at_idx', ['at'])
export class AuditEntry {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Entries go with their project. The table is named, not its entity: the audit module stands beside projects, not above it. */
  @ForeignKey('projects', { name: 'audit_log_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') actorType: AuditActorType;
  /** A user's id, or the secret key's id (its prefix, `secretPrefix`). */
  @Column('text') actorId: string;
  @Column('text', { nullable: true }) actorEmail: string | null;
  @Column('text') action: AuditAction;
  @Column('text') targetType: AuditTargetType;
  @Column('text') targetId: string;
  /** The names of what changed (settings updates); null when the action names none. */
  @Column('text', { array: true, nullable: true }) changes: string[] | null;
  /** The client address (`req.ip`, as TRUST_PROXY decides). */
  @Column('text', { nullable: true }) ip: string | null;
  @Column('timestamptz', { default: () => 'now()' }) at: Date;
}
