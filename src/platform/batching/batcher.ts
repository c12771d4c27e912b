import { retrying } from '../retry';

export interface BatcherOptions<I, O> {
  /** One round trip for many calls: a result per item, in item order. */
  runBatch: (items: I[]) => Promise<Array<O | undefined>>;
  /** Items per batch (default 100). */
  max?: number;
  /** Batches running at once (default 1). */
  maxInFlight?: number;
  /**
   * The rows an item writes (e.g. contacts): items sharing a key never share a batch nor run at
   * the same time, and keep their call order. Without it items are independent.
   */
  keys?: (item: I) => readonly string[];
  /** Keys per batch in total (rows of one statement); a first item always fits. */
  maxKeys?: number;
  /**
   * The single-item path. With it, a lone call runs it right away, an item the batch left
   * `undefined` runs it, and every item of a failed batch runs it (one after the other), so
   * each caller gets its own result or its own error. Without it, a lone call is a batch of
   * one, results are handed over as they are, and a failed batch fails each of its calls.
   */
  runOne?: (item: I) => Promise<O>;
  /** Errors worth running the same batch once more (deadlock, serialization failure). */
  retryable?: (error: unknown) => boolean;
}

interface Entry<I, O> {
  item: I;
  keys: readonly string[];
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Adaptive batching without added latency: calls made while batches are in flight are collected
 * and run together as the next batch. Under light load every call runs alone right away; under
 * load many calls share one round trip (and one commit). Used for the pipeline's per-email
 * reads and status writes, enqueues, contact upserts (`/v1/track`) and `/v1/send` writes.
 */
export class Batcher<I, O> {
  readonly stats = { batches: 0, batchedItems: 0, single: 0, retries: 0, fallbacks: 0 };
  private queue: Array<Entry<I, O>> = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private readonly max: number;
  private readonly maxInFlight: number;
  private readonly maxKeys: number;

  constructor(private readonly options: BatcherOptions<I, O>) {
    this.max = options.max ?? 100;
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxKeys = options.maxKeys ?? Infinity;
  }

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const keys = this.options.keys ? [...new Set(this.options.keys(item))] : [];
      this.queue.push({ item, keys, resolve, reject });
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
      const { batch, rest } = takeBatch(this.queue, this.busy, this.max, this.maxKeys);
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
    const { runOne, retryable } = this.options;
    if (batch.length === 1 && runOne) {
      this.stats.single++;
      await settle(batch[0], runOne);
      return;
    }
    this.stats.batches++;
    this.stats.batchedItems += batch.length;
    let results: Array<O | undefined> | undefined;
    try {
      // A retryable failure runs the same batch once more.
      results = await retrying(() => this.options.runBatch(batch.map((entry) => entry.item)), retryable ?? (() => false), 2, () => this.stats.retries++);
    } catch (error) {
      if (!runOne) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      this.stats.fallbacks++;
    }
    // Items the batch settled first (in call order), then the others one by one.
    const left = batch.filter((entry, i) => {
      const result = results?.[i];
      if (result === undefined && runOne) return true;
      entry.resolve(result as O);
      return false;
    });
    for (const entry of left) await settle(entry, runOne!);
  }
}

async function settle<I, O>(entry: Entry<I, O>, runOne: (item: I) => Promise<O>): Promise<void> {
  try {
    entry.resolve(await runOne(entry.item));
  } catch (error) {
    entry.reject(error);
  }
}

/**
 * Splits a queue into the next batch (at most `max` entries, in queue order) and the rest. An
 * entry joins only when none of its keys is running (`busy`), already in this batch, or held by
 * an earlier entry that waits; so no key appears twice in a batch and each key's calls keep their
 * order. `maxKeys` caps the batch's keys in total; the first entry always fits.
 */
export function takeBatch<E extends { keys: readonly string[] }>(
  queue: readonly E[],
  busy: ReadonlySet<string>,
  max: number,
  maxKeys = Infinity,
): { batch: E[]; rest: E[] } {
  const batch: E[] = [];
  const rest: E[] = [];
  const taken = new Set<string>();
  const held = new Set<string>();
  let keyCount = 0;
  for (const entry of queue) {
    const fits =
      batch.length < max &&
      (batch.length === 0 || keyCount + entry.keys.length <= maxKeys) &&
      entry.keys.every((key) => !busy.has(key) && !taken.has(key) && !held.has(key));
    if (fits) {
      batch.push(entry);
      for (const key of entry.keys) taken.add(key);
      keyCount += entry.keys.length;
    } else {
      rest.push(entry);
      for (const key of entry.keys) held.add(key);
    }
  }
  return { batch, rest };
}
