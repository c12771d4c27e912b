import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The hand-overs' at-most-once windows per UTC day and transport (docs/operations.md,
 * "Reliability"): `window_ms` from each claim to its outcome's write, `accepted_ms` the part of it
 * after the transport had accepted the message. Upserted by each worker every 5 s.
 */
@Entity('handover_windows')
export class HandoverWindow {
  /** The UTC date. */
  @PrimaryColumn('date') day: string;
  @PrimaryColumn('text') transport: string;
  @Column('bigint', { default: 0 }) handovers: string;
  @Column('double precision', { default: 0 }) windowMs: number;
  @Column('double precision', { default: 0 }) acceptedMs: number;
}
