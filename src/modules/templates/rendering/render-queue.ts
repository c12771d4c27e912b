interface Waiting<J, O> {
  job: J;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
  /** Run in a batch of its own: its last batch's renderer died or overran, and only the culprit may fail. */
  alone: boolean;
}

export interface RenderQueueOptions<J, O> {
  /**
   * One round trip for many jobs. A result per job in job order; a job left `undefined` runs
   * again alone; jobs past the end of a shorter answer were not started (the batch used up its
   * time slice) and take their turn again.
   */
  runBatch: (jobs: J[]) => Promise<Array<O | undefined>>;
  /** Jobs per batch. */
  max: number;
  /** Batches running at once. */
  maxInFlight: number;
}

/** The lane of jobs that go before any tenant's: the save-time Liquid checks of API requests. */
export const URGENT = Symbol('urgent');

/**
 * The jobs waiting for a renderer, served in turn by tenant (project) rather than first come
 * first served (issue 51): each batch holds one tenant's jobs, and the next batch is the next
 * tenant's, so a project with thousands of slow renders waiting delays another's email by at
 * most the batches in flight, each bounded by its time slice. The urgent lane goes first.
 * Batching as the `Batcher` does it: jobs that arrive while batches run go together in the next.
 */
export class RenderQueue<J, O> {
  private readonly urgent: Array<Waiting<J, O>> = [];
  /** Tenants with jobs waiting, in turn order (a Map keeps insertion order). */
  private readonly tenants = new Map<string, Array<Waiting<J, O>>>();
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly options: RenderQueueOptions<J, O>) {}

  get waiting(): number {
    let n = this.urgent.length;
    for (const queue of this.tenants.values()) n += queue.length;
    return n;
  }

  run(tenant: string | typeof URGENT, job: J): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queueOf(tenant).push({ job, resolve, reject, alone: false });
      if (!this.scheduled && this.inFlight < this.options.maxInFlight) {
        // Jobs of the same event-loop turn go together.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private queueOf(tenant: string | typeof URGENT): Array<Waiting<J, O>> {
    if (tenant === URGENT) return this.urgent;
    let queue = this.tenants.get(tenant);
    if (!queue) this.tenants.set(tenant, (queue = []));
    return queue;
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight) {
      const next = this.take();
      if (!next) return;
      this.inFlight++;
      void this.execute(next.tenant, next.batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The urgent lane's first jobs, or the jobs at the head of the tenant whose turn it is (who then goes last). */
  private take(): { tenant: string | typeof URGENT; batch: Array<Waiting<J, O>> } | null {
    if (this.urgent.length) return { tenant: URGENT, batch: this.splice(this.urgent) };
    const first = this.tenants.entries().next();
    if (first.done) return null;
    const [tenant, queue] = first.value;
    const batch = this.splice(queue);
    this.tenants.delete(tenant);
    if (queue.length) this.tenants.set(tenant, queue);
    return { tenant, batch };
  }

  private splice(queue: Array<Waiting<J, O>>): Array<Waiting<J, O>> {
    if (queue[0].alone) return queue.splice(0, 1);
    let n = 1;
    while (n < queue.length && n < this.options.max && !queue[n].alone) n++;
    return queue.splice(0, n);
  }

  private async execute(tenant: string | typeof URGENT, batch: Array<Waiting<J, O>>): Promise<void> {
    let results: Array<O | undefined>;
    try {
      results = await this.options.runBatch(batch.map((w) => w.job));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    const again: Array<Waiting<J, O>> = [];
    batch.forEach((waiting, i) => {
      const result = results[i];
      if (i >= results.length) again.push(waiting);
      else if (result === undefined) again.push({ ...waiting, alone: true });
      else waiting.resolve(result);
    });
    // Back at the head of their queue, in order: they keep their place within the tenant's jobs.
    if (again.length) this.queueOf(tenant).unshift(...again);
  }
}
