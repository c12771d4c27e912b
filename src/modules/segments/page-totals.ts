import { LRUCache } from 'lru-cache';

/** A count that took at least this long is worth keeping (a small project counts in a few ms and never reuses). */
export const SLOW_COUNT_MS = 50;
/**
 * A count under this many rows is never kept, however long it took: counting it again is cheap, and
 * a small count made slow by a busy machine would otherwise hold a stale total for COUNT_REUSE_MS
 * (a contact added to a small segment missing from its total).
 */
export const KEEP_MIN_ROWS = 1_000;
/** How long a kept count answers for `total`: the page's rows are always live, only the total can lag. */
export const COUNT_REUSE_MS = 30_000;

/**
 * `total` of the members page. Counting a dynamic segment over a large project is a scan of its
 * contacts (~300 ms for a million, bench/README.md "Segments") while the page itself is an index walk
 * of ~2 ms, so paging through a big segment would pay the scan on every click. A count that took
 * SLOW_COUNT_MS or more, of KEEP_MIN_ROWS rows or more, is kept for COUNT_REUSE_MS with the segment's definition key (see
 * AudienceService.segmentAudience): a changed definition, a changed referenced segment or a retyped
 * key counts afresh, and so does the page after a refresh, a compute or a change of static
 * members in this process. Per process, bounded in entries.
 */
export class PageTotals {
  /** Per segment: the definition key the count was made under, and the count. */
  private readonly kept: LRUCache<string, { key: string; n: number }>;

  constructor(private readonly clock: () => number = () => performance.now()) {
    this.kept = new LRUCache<string, { key: string; n: number }>({ max: 1_000, ttl: COUNT_REUSE_MS, ttlResolution: 0, perf: { now: clock } });
  }

  /** The kept count of `segmentId` under definition `key`, or null (none, another definition, or older than COUNT_REUSE_MS). */
  recent(segmentId: string, key: string): number | null {
    const hit = this.kept.get(segmentId);
    return hit && hit.key === key ? hit.n : null;
  }

  /** Runs `count` and keeps its answer when it was slow and large. */
  async count(segmentId: string, key: string, count: () => Promise<number>): Promise<number> {
    const started = this.clock();
    const n = await count();
    if (this.clock() - started >= SLOW_COUNT_MS && n >= KEEP_MIN_ROWS) this.kept.set(segmentId, { key, n });
    return n;
  }

  /** A refresh, compute or membership change asked for fresh figures: the next page counts. */
  forget(segmentId: string): void {
    this.kept.delete(segmentId);
  }
}

/**
 * Corrects a total with what the page itself saw (it fetched one row past `pageSize`): a page that
 * is not full ends the list, so the total is exact; a page with a row beyond it proves at least
 * that many; an empty page past the end caps the total at its offset. A live count is never
 * changed by this; a kept one is made consistent with the rows returned.
 */
export function reconcileTotal(total: number, offset: number, pageSize: number, fetched: number): number {
  if (fetched > pageSize) return Math.max(total, offset + pageSize + 1);
  if (fetched > 0 || offset === 0) return offset + fetched;
  return Math.min(total, offset);
}
