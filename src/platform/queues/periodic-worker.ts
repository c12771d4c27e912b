import { Inject, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../../config/config';
import { logger } from '../logging/logger';
import { PeriodicRound, PeriodicRoundOptions } from './periodic-round';
import { TickClock } from './tick-clock';

/**
 * A background tick as a Nest provider (a module's `worker/` file): the subclass gives its round,
 * and its interval to the constructor; this starts the rounds at bootstrap in processes that run workers, logs a
 * round that throws, and on module destroy stops them, waiting for the round under way (which can
 * check `stopped` between its steps), so it ends before the database closes. The timing is a
 * `TickClock` on @nestjs/schedule's `SchedulerRegistry`, injected here as a property so the
 * subclasses' constructors do not carry it.
 */
export abstract class PeriodicWorker implements OnApplicationBootstrap, OnModuleDestroy {
  @Inject(SchedulerRegistry) private readonly schedule!: SchedulerRegistry;
  private made: PeriodicRound | undefined;

  protected constructor(
    private readonly runtime: Pick<AppConfig, 'role'>,
    private readonly name: string,
    /** Milliseconds between rounds, or null when the work is switched off. */
    private readonly intervalMs: number | null,
    private readonly options?: PeriodicRoundOptions,
  ) {}

  /** One round of the work. */
  protected abstract round(): Promise<unknown>;

  /** Made at first use: the scheduler registry is injected after the constructor. */
  private get rounds(): PeriodicRound {
    if (!this.made) {
      const log = logger(this.name);
      const clock = new TickClock(this.schedule, this.name);
      this.made = new PeriodicRound(clock, () => this.round(), (err) => log.warn({ err }, `${this.name}: the round failed`), this.options);
    }
    return this.made;
  }

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
