import type { SchedulerRegistry } from '@nestjs/schedule';

/**
 * The one place background ticks get their timing: a tick's interval, and the pause before a round
 * asked for again, are timers held by @nestjs/schedule's `SchedulerRegistry` under the tick's name
 * (`tick:<name>`, `tick:<name>:again`), so the registry lists every running tick and Nest clears any
 * left at shutdown. Timers are unref'd: a tick never keeps a process alive by itself.
 */
export class TickClock {
  private readonly intervalName: string;
  private readonly pauseName: string;
  private endPause: (() => void) | undefined;

  constructor(
    private readonly registry: SchedulerRegistry,
    name: string,
  ) {
    this.intervalName = `tick:${name}`;
    this.pauseName = `tick:${name}:again`;
  }

  /** Calls `tick` every `ms` until `stop()`. */
  every(ms: number, tick: () => void): void {
    this.registry.addInterval(this.intervalName, setInterval(tick, ms).unref());
  }

  /** Resolves after `ms`, or at once when `stop()` is called meanwhile. One pause at a time. */
  pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.endPause = () => {
        this.endPause = undefined;
        if (this.registry.doesExist('timeout', this.pauseName)) this.registry.deleteTimeout(this.pauseName);
        resolve();
      };
      this.registry.addTimeout(this.pauseName, setTimeout(this.endPause, ms).unref());
    });
  }

  /** Clears the interval and ends a pause under way (either may already be gone: Nest clears them at shutdown). */
  stop(): void {
    if (this.registry.doesExist('interval', this.intervalName)) this.registry.deleteInterval(this.intervalName);
    this.endPause?.();
  }
}
