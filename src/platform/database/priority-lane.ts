import { OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { logger } from '../logging/logger';
import { poolOptions } from './data-source-options';

const log = logger('priority-lane');

/**
 * A few connections of their own beside the data source's pool, with its settings (deadlines,
 * keepalive, read timeout): for statements that must never wait behind the pool's other work.
 * Its one user is the write of a hand-over's outcome (`EmailStatusStore`): until it commits, an
 * email the transport already accepted reads `sending` and a crash would leave it `uncertain`,
 * so it must not queue behind a campaign's batch transaction or an outbox round that holds every
 * pooled connection (docs/operations.md, "Reliability"). Connections open at first use, so a
 * process that never writes an outcome (`ROLE=api`) opens none.
 */
export class PriorityLane implements OnApplicationShutdown {
  /** Connections of the lane: statements in flight share them, and those that wait meanwhile go as one batch (`Batcher`). */
  static readonly SIZE = 2;
  private readonly pool: Pool;

  constructor(url: string, size: number, timeouts: { connectMs: number; readMs: number }) {
    this.pool = new Pool({ connectionString: url, ...poolOptions(size, timeouts.connectMs, timeouts.readMs) });
    // An idle connection that dies (a restart, a partition) is dropped by the pool; the next statement opens another.
    this.pool.on('error', (err) => log.warn({ err }, 'an idle priority connection failed; it is replaced at next use'));
  }

  /** The statement's rows (for `UPDATE … RETURNING` as for `SELECT`). */
  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.pool.query(text, values)).rows as T[];
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
