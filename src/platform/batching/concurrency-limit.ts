/**
 * At most `limit` calls of `run` at once; the rest wait in arrival order. (A group of queued
 * emails must not put more messages in flight than `SEND_CONCURRENCY` allows a process.)
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`limit must be at least 1 (got ${limit})`);
  }

  get inFlight(): number {
    return this.active;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /**
   * Inside `run`: gives the caller's slot up while `task` waits on something that is not this
   * process's work (a remote server's answer), and takes a slot again, in turn, before going on.
   */
  async outside<T>(task: () => Promise<T>): Promise<T> {
    this.release();
    try {
      return await task();
    } finally {
      await this.acquire();
    }
  }

  private async acquire(): Promise<void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the next caller
    else this.active -= 1;
  }
}
