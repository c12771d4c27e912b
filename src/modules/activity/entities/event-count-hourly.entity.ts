import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';

/** Maintained by triggers on `events` (migration ActivityRollup); never written by the application. */
@Entity('event_counts_hourly')
export class EventCountHourly {
  @ForeignKey(() => Project, { name: 'event_counts_hourly_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  /** Start of the UTC hour. */
  @PrimaryColumn('timestamptz') hour: Date;
  @PrimaryColumn('text') name: string;
  @Column('bigint', { default: 0 }) count: string;
}
