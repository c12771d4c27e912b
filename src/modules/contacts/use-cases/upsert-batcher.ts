import { takeBatch } from './upsert-contacts-batch.sql';

export interface UpsertBatcherOptions<I, O> {
  /** Items with the same key never share a batch nor run concurrently; their calls keep their order. */
  key: (item: I) => string;
  /** One statement for many items: a result per item, `undefined` to run that item alone. */
  runBatch: (items: I[]) => Promise<Array<O | undefined>>;
  /** The single-item path: a one-item batch, an item the batch left out, every item of a failed batch. */
  runOne: (item: I) => Promise<O>;
  /** Errors worth running the same batch once more (deadlock, serialization failure). */
  retryable: (error: unknown) => boolean;
  max?: number;
  maxInFlight?: number;
}

interface Entry<I, O> {
  item: I;
  key: string;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Adaptive batching without added latency (the contacts variant of the emails pipeline's
 * `Batcher`): calls made while batches are in flight are collected and run together as the
 * next batch. Under light load every call runs alone right away (single statement); under load
 * many calls share one statement and one commit. A key in flight or already in the forming
 * batch holds its later calls for a later batch, so every call of a contact sees the earlier
 * ones' effect.
 *
 * A failed batch is retried once when `retryable`, then each of its items runs alone so every
 * caller gets its own result or its own error.
 */
export class UpsertBatcher<I, O> {
  readonly stats = { batches: 0, batchedItems: 0, single: 0, fallbacks: 0 };
  private queue: Array<Entry<I, O>> = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private readonly max: number;
  private readonly maxInFlight: number;

  constructor(private readonly options: UpsertBatcherOptions<I, O>) {
    this.max = options.max ?? 100;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, key: this.options.key(item), resolve, reject });
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        // Calls of the same event-loop turn (e.g. requests read in one poll) go together.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const { batch, rest } = takeBatch(this.queue, this.busy, this.max);
      if (batch.length === 0) return;
      this.queue = rest;
      for (const entry of batch) this.busy.add(entry.key);
      this.inFlight++;
      void this.execute(batch).finally(() => {
        for (const entry of batch) this.busy.delete(entry.key);
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async execute(batch: Array<Entry<I, O>>): Promise<void> {
    if (batch.length === 1) {
      this.stats.single++;
      await this.settleAlone(batch[0]);
      return;
    }
    this.stats.batches++;
    this.stats.batchedItems += batch.length;
    let results: Array<O | undefined> = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        results = await this.options.runBatch(batch.map((entry) => entry.item));
        break;
      } catch (error) {
        if (attempt > 0 || !this.options.retryable(error)) {
          this.stats.fallbacks++;
          break;
        }
      }
    }
    // Items the batch settled first (in call order), then the others one by one.
    const left: Array<Entry<I, O>> = [];
    batch.forEach((entry, i) => {
      const result = results[i];
      if (result === undefined) left.push(entry);
      else entry.resolve(result);
    });
    for (const entry of left) await this.settleAlone(entry);
  }

  private async settleAlone(entry: Entry<I, O>): Promise<void> {
    try {
      entry.resolve(await this.options.runOne(entry.item));
    } catch (error) {
      entry.reject(error);
    }
  }
}
