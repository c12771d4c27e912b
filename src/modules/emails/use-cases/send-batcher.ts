import { takeBatchByKeys } from '../../contacts/use-cases/upsert-contacts-batch.sql';

export interface SendBatcherOptions<I, O> {
  /** The contacts an item writes: items sharing a key never share a batch nor run concurrently, and keep their call order. */
  keys: (item: I) => string[];
  /** The whole batch in one transaction: a result per item, in item order; throws when the transaction failed. */
  runBatch: (items: I[]) => Promise<O[]>;
  /** The single-item path (its own transaction): a lone item, and every item of a failed batch. */
  runOne: (item: I) => Promise<O>;
  /** Errors worth running the same batch once more (deadlock, serialization failure). */
  retryable: (error: unknown) => boolean;
  /** Items per batch. */
  max?: number;
  /** Keys (recipients) per batch in total; a single item always fits. */
  maxKeys?: number;
  maxInFlight?: number;
}

interface Entry<I, O> {
  item: I;
  keys: string[];
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Adaptive batching of whole write transactions (`POST /v1/send`): calls made while batches are
 * in flight are collected and run together as the next batch, one transaction for all of them.
 * A lone call runs the single-item path right away, so light load adds no latency. Like the
 * contacts' `UpsertBatcher`, but an item may write several contacts (keys): an item waits for a
 * later batch while any of its keys is in flight, in the forming batch, or held by an earlier
 * waiting item.
 *
 * A failed batch is retried once when `retryable`, then each of its items runs alone (one after
 * the other), so every caller gets its own result or its own error and nothing of a failed item
 * is written (the batch transaction rolled back as a whole).
 */
export class SendBatcher<I, O> {
  readonly stats = { batches: 0, batchedItems: 0, single: 0, retries: 0, fallbacks: 0 };
  private queue: Array<Entry<I, O>> = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private readonly max: number;
  private readonly maxKeys: number;
  private readonly maxInFlight: number;

  constructor(private readonly options: SendBatcherOptions<I, O>) {
    this.max = options.max ?? 50;
    this.maxKeys = options.maxKeys ?? 500;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, keys: [...new Set(this.options.keys(item))], resolve, reject });
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
      const { batch, rest } = takeBatchByKeys(this.queue, this.busy, this.max, this.maxKeys);
      if (batch.length === 0) return;
      this.queue = rest;
      for (const entry of batch) for (const key of entry.keys) this.busy.add(key);
      this.inFlight++;
      void this.execute(batch).finally(() => {
        for (const entry of batch) for (const key of entry.keys) this.busy.delete(key);
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
    for (let attempt = 0; attempt < 2; attempt++) {
      let results: O[];
      try {
        results = await this.options.runBatch(batch.map((entry) => entry.item));
      } catch (error) {
        if (attempt === 0 && this.options.retryable(error)) {
          this.stats.retries++;
          continue;
        }
        break;
      }
      batch.forEach((entry, i) => entry.resolve(results[i]));
      return;
    }
    this.stats.fallbacks++;
    for (const entry of batch) await this.settleAlone(entry);
  }

  private async settleAlone(entry: Entry<I, O>): Promise<void> {
    try {
      entry.resolve(await this.options.runOne(entry.item));
    } catch (error) {
      entry.reject(error);
    }
  }
}
