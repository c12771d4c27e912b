import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { CounterHit, CounterStore } from './counter-store';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Embedded mode only: PGlite lives inside this one process, so no other process can share
 * the counters and a Map is exact, sparing the single database session a write per request.
 */
@Injectable()
export class MemoryCounterStore extends CounterStore implements OnModuleDestroy {
  private readonly windows = new Map<string, { count: number; expiresAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.expiresAt <= now) {
      window = { count: 0, expiresAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetMs: window.expiresAt - now };
  }

  async peek(key: string): Promise<CounterHit | null> {
    const window = this.windows.get(key);
    const now = Date.now();
    return window && window.expiresAt > now ? { count: window.count, resetMs: window.expiresAt - now } : null;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async release(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.expiresAt > Date.now() && window.count > 0) window.count--;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
