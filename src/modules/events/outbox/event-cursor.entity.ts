import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per event consumer: how far it has read the events table, and who holds it now. */
@Entity('event_consumer_cursors')
export class EventConsumerCursor {
  @PrimaryColumn('text') consumer: string;
  /** `events.seq` of the last event handed to the consumer. */
  @Column('bigint') lastSeq: string;
  /** A process holds the consumer until then (a crashed holder's lease simply expires). */
  @Column('timestamptz', { nullable: true }) leasedUntil: Date | null;
  @Column('text', { nullable: true }) leasedBy: string | null;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
