import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Maintained by triggers on `events` (migration ActivityRollup); never written by the application. */
@Entity('event_counts_hourly')
export class EventCountHourly {
  @PrimaryColumn('uuid') projectId: string;
  /** Start of the UTC hour. */
  @PrimaryColumn('timestamptz') hour: Date;
  @PrimaryColumn('text') name: string;
  @Column('bigint', { default: 0 }) count: string;
}
