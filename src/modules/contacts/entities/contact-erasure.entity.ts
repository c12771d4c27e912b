import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';
import type { ErasureStatus, ErasureStep } from '../erasure/erasure-steps';

/**
 * A contact's erasure (`POST /contacts/:id/erase`), run by `ErasureRunner`: `step` is the last step
 * done, so a job that crashed resumes after it. `contactId` is kept (the contact itself is gone
 * once completed), never its address.
 */
@Entity('contact_erasures')
/** At most one unfinished erasure per contact: a second request answers the first. */
@Index('contact_erasures_unfinished_key', ['projectId', 'contactId'], { unique: true, where: "status IN ('queued', 'running')" })
/** `(project_id, requested_at DESC, id)`: a descending key TypeORM cannot declare, left to the migration. */
@Index('contact_erasures_project_requested_idx', { synchronize: false })
export class ContactErasure {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'contact_erasures_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') contactId: string;
  @Column('text', { default: 'queued' }) status: ErasureStatus;
  @Column('text', { nullable: true }) step: ErasureStep | null;
  /** Who asked, as the audit log names actors: 'user' (a session's user id) or 'key' (the secret key's id). */
  @Column('text') requestedByType: 'user' | 'key';
  @Column('text') requestedById: string;
  @Column('text', { nullable: true }) failureReason: string | null;
  @Column('timestamptz', { default: () => 'now()' }) requestedAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
