import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('events')
export class EventRecord {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text', { nullable: true }) contactId: string | null;
  @Column('text') name: string;
  @Column('jsonb') data: Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  /** Commit-independent order of every event: the event outbox's cursor column. */
  @Index('events_seq_key', { unique: true })
  @Generated('increment')
  @Column({ type: 'bigint', insert: false, update: false })
  seq: string;
}
