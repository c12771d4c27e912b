export interface CounterHit {
  /** Hits in the current window, including this one. */
  count: number;
  /** Milliseconds until the window ends and the count starts over. */
  resetMs: number;
}

/**
 * Fixed-window counters shared by every process: Redis when configured, else PostgreSQL.
 * A window starts at a key's first hit and lasts `windowMs`.
 */
export abstract class CounterStore {
  abstract hit(key: string, windowMs: number): Promise<CounterHit>;
  /** The current window's count without adding to it; null when no window is open. */
  abstract peek(key: string): Promise<CounterHit | null>;
  abstract clear(key: string): Promise<void>;
  /** Takes one hit back from the open window (never below 0); nothing when no window is open. */
  abstract release(key: string): Promise<void>;
}
