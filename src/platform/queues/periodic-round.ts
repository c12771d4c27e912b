import type { AppConfig } from '../../config/config';
import { runsOnWorkers } from './worker-only';

/**
 * Background work every `intervalMs` in processes that run workers (`runsOnWorkers`): one round
 * at a time (a tick that finds a round under way is skipped), and `stop()` waits for the round
 * under way so it ends before the database closes. `run` handles its own errors; one that
 * escapes goes to `onError`.
 */
export class PeriodicRound {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stoppedFlag = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** True once `stop()` was called: a long round can check it between steps. */
  get stopped(): boolean {
    return this.stoppedFlag;
  }

  start(config: Pick<AppConfig, 'role'>, intervalMs: number): void {
    if (!runsOnWorkers(config)) return;
    this.timer = setInterval(() => void this.runNow(), intervalMs);
    this.timer.unref();
  }

  /** A round now, or the one under way; nothing once stopped. */
  runNow(): Promise<void> {
    if (this.stoppedFlag) return Promise.resolve();
    this.round ??= this.run()
      .then(() => undefined, this.onError)
      .finally(() => (this.round = undefined));
    return this.round;
  }

  async stop(): Promise<void> {
    this.stoppedFlag = true;
    if (this.timer) clearInterval(this.timer);
    await this.round;
  }
}
