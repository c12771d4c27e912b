import type { AppConfig } from '../../config/config';
import type { TickClock } from './tick-clock';
import { runsOnWorkers } from './worker-only';

export interface PeriodicRoundOptions {
  /**
   * A call (or tick) that finds a round under way asks for one more round instead of joining it:
   * that round starts this long after the one under way ends, and calls meanwhile coalesce into
   * it (a wake-up that must not be lost, e.g. the event outbox's notifications).
   */
  rerunAfterMs?: number;
}

/**
 * Background work every `intervalMs` in processes that run workers (`runsOnWorkers`): one round
 * at a time (a tick that finds a round under way is skipped, unless `rerunAfterMs` asks for one
 * more), and `stop()` waits for the round under way so it ends before the database closes. `run`
 * handles its own errors; one that escapes goes to `onError`. Its timing is the `TickClock`'s.
 */
export class PeriodicRound {
  private round: Promise<void> | undefined;
  private stoppedFlag = false;
  private again = false;

  constructor(
    private readonly clock: TickClock,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
    private readonly options: PeriodicRoundOptions = {},
  ) {}

  /** True once `stop()` was called: a long round can check it between steps. */
  get stopped(): boolean {
    return this.stoppedFlag;
  }

  start(config: Pick<AppConfig, 'role'>, intervalMs: number): void {
    if (!runsOnWorkers(config)) return;
    this.clock.every(intervalMs, () => void this.runNow());
  }

  /** A round now, or the one under way (with `rerunAfterMs`, one more after it); nothing once stopped. */
  runNow(): Promise<void> {
    if (this.stoppedFlag) return Promise.resolve();
    if (this.round && this.options.rerunAfterMs !== undefined) this.again = true;
    this.round ??= this.rounds().finally(() => (this.round = undefined));
    return this.round;
  }

  async stop(): Promise<void> {
    this.stoppedFlag = true;
    this.clock.stop();
    await this.round;
  }

  private async rounds(): Promise<void> {
    await this.run().then(() => undefined, this.onError);
    const gap = this.options.rerunAfterMs;
    while (gap !== undefined && this.again && !this.stoppedFlag) {
      this.again = false;
      await this.clock.pause(gap);
      if (this.stoppedFlag) return;
      await this.run().then(() => undefined, this.onError);
    }
  }
}
