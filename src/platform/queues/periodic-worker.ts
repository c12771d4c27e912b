import { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { logger } from '../logging/logger';
import { PeriodicRound, PeriodicRoundOptions } from './periodic-round';

/**
 * A background tick as a Nest provider (a module's `worker/` file): the subclass gives its round,
 * and its interval to the constructor; this starts the rounds at bootstrap in processes that run workers, logs a
 * round that throws, and on module destroy stops them, waiting for the round under way (which can
 * check `stopped` between its steps), so it ends before the database closes.
 */
export abstract class PeriodicWorker implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly rounds: PeriodicRound;

  protected constructor(
    private readonly runtime: Pick<AppConfig, 'role'>,
    name: string,
    /** Milliseconds between rounds, or null when the work is switched off. */
    private readonly intervalMs: number | null,
    options?: PeriodicRoundOptions,
  ) {
    const log = logger(name);
    this.rounds = new PeriodicRound(() => this.round(), (err) => log.warn({ err }, `${name}: the round failed`), options);
  }

  /** One round of the work. */
  protected abstract round(): Promise<unknown>;

  /** True once stopping: a long round checks it between its steps. */
  protected get stopped(): boolean {
    return this.rounds.stopped;
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs !== null) this.rounds.start(this.runtime, this.intervalMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.rounds.stop();
  }

  /** A round now, or the one under way (tests and callers that must not wait for the interval). */
  runNow(): Promise<void> {
    return this.rounds.runNow();
  }
}
