import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * An `Idempotency-Key` claimed by a project's request (IdempotencyService writes it with SQL).
 * Claimed in the transaction that writes the request's rows, with its status and answer.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_expires_idx', ['expiresAt'])
export class IdempotencyKey {
  // By table name: the platform does not import the projects module's entity.
  @ForeignKey('projects', { name: 'idempotency_keys_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  @PrimaryColumn('text') key: string;
  @Column('text') method: string;
  @Column('text') path: string;
  @Column('integer', { nullable: true }) statusCode: number | null;
  @Column('jsonb', { nullable: true }) response: unknown;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz') expiresAt: Date;
}
