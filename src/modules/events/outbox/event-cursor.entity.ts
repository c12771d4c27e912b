import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per event consumer: how far it has read the events table (who runs it is an advisory lock, `SingletonLocks`). */
@Entity('event_consumer_cursors')
export class EventConsumerCursor {
  @PrimaryColumn('text') consumer: string;
  /** `events.seq` of the last event handed to the consumer. */
  @Column('bigint') lastSeq: string;
  /** The lease of earlier versions, no longer read or written (a process holds a consumer by its advisory lock). */
  @Column('timestamptz', { nullable: true }) leasedUntil: Date | null;
  @Column('text', { nullable: true }) leasedBy: string | null;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
