/**
 * Event sequence numbers are taken when a row is inserted but become visible when its
 * transaction commits, so a reader can see seq 12 while seq 11 is still in flight (or was rolled
 * back and will never appear). The outbox reads the contiguous run after its cursor and waits at
 * the first gap. A gap is given up (treated as rolled back or deleted) once every transaction that
 * was running when the gap was first seen has ended (`pg_snapshot_xmin` of a later snapshot has
 * passed that snapshot's `xmax`) and a short settle time has passed (covering the instant between
 * a statement taking its sequence number and its transaction getting an id).
 */
export interface GapWatch {
  /** Highest seq visible when the gap was seen: every gap up to here is settled together. */
  horizon: bigint;
  /** `pg_snapshot_xmax` of a snapshot taken after that read. */
  xmax: bigint;
  seenAt: number;
}

export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
}

export const GAP_SETTLE_MS = 2_000;

/**
 * How many of `seqs` (ascending, all > cursor) may be consumed now, and the gap watch to keep.
 */
export function consumable(
  cursor: bigint,
  seqs: bigint[],
  watch: GapWatch | null,
  snapshot: Snapshot,
  now: number,
  settleMs = GAP_SETTLE_MS,
): { count: number; watch: GapWatch | null } {
  const settledUpTo = watch && snapshot.xmin >= watch.xmax && now - watch.seenAt >= settleMs ? watch.horizon : cursor;
  let expected = cursor + 1n;
  let count = 0;
  for (const seq of seqs) {
    if (seq !== expected && seq > settledUpTo) break;
    expected = seq + 1n;
    count++;
  }
  const last = count > 0 ? seqs[count - 1] : cursor;
  if (count < seqs.length) {
    // Blocked at a gap: keep the running watch if it covers the gap, else start one now.
    const blocked = seqs[count];
    if (!watch || watch.horizon < blocked) watch = { horizon: seqs[seqs.length - 1], xmax: snapshot.xmax, seenAt: now };
    return { count, watch };
  }
  return { count, watch: watch && watch.horizon > last ? watch : null };
}
