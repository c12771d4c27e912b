/**
 * Adaptive batching without added latency: calls made while a batch is in flight are
 * collected and run together as the next batch (at most `max` items). Under light load every
 * call runs alone right away; under heavy load many calls share one round trip.
 */
export class Batcher<I, O> {
  private queue: Array<{ item: I; resolve: (value: O) => void; reject: (err: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly runBatch: (items: I[]) => Promise<O[]>,
    private readonly max = 200,
  ) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.max);
      try {
        const results = await this.runBatch(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    this.running = false;
  }
}
