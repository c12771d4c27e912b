import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A fixed-window counter of the PostgreSQL counter store (PostgresCounterStore writes it with SQL).
 * The table is UNLOGGED (migration RateCountersUnlogged): a crash merely resets the counters.
 */
@Entity('rate_counters')
@Index('rate_counters_expires_idx', ['expiresAt'])
export class RateCounter {
  @PrimaryColumn('text') key: string;
  @Column('integer') count: number;
  @Column('timestamptz') expiresAt: Date;
}
