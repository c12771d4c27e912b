import { consumable, GAP_SETTLE_MS } from './gap-horizon';

const snap = (xmin: number, xmax: number) => ({ xmin: BigInt(xmin), xmax: BigInt(xmax) });
const seqs = (...n: number[]) => n.map(BigInt);

describe('consumable (event outbox gaps)', () => {
  it('takes a contiguous run after the cursor', () => {
    expect(consumable(10n, seqs(11, 12, 13), null, snap(5, 9), 0)).toEqual({ count: 3, watch: null });
  });

  it('stops at a gap and starts watching it with the snapshot taken after the read', () => {
    const result = consumable(10n, seqs(11, 13, 14), null, snap(5, 9), 1_000);
    expect(result).toEqual({ count: 1, watch: { horizon: 14n, xmax: 9n, seenAt: 1_000 } });
  });

  it('waits while a transaction that was running at the first sight may still commit', () => {
    const watch = { horizon: 14n, xmax: 9n, seenAt: 0 };
    // Settle time passed but xmin has not passed 9: the writer of seq 12 may be in flight.
    expect(consumable(11n, seqs(13, 14), watch, snap(8, 12), GAP_SETTLE_MS + 1)).toEqual({ count: 0, watch });
    // Every such transaction ended but the settle time has not passed yet.
    expect(consumable(11n, seqs(13, 14), watch, snap(9, 12), GAP_SETTLE_MS - 1)).toEqual({ count: 0, watch });
  });

  it('gives up every gap up to the horizon once settled, and consumes a late row that filled one', () => {
    const watch = { horizon: 14n, xmax: 9n, seenAt: 0 };
    expect(consumable(11n, seqs(13, 14, 16), watch, snap(9, 12), GAP_SETTLE_MS)).toEqual({
      count: 2,
      watch: { horizon: 16n, xmax: 12n, seenAt: GAP_SETTLE_MS },
    });
    expect(consumable(11n, seqs(12, 13, 14), watch, snap(8, 12), 0)).toEqual({ count: 3, watch: null });
  });

  it('treats a gap before the first visible row like any other', () => {
    expect(consumable(0n, seqs(2, 3), null, snap(1, 4), 0).count).toBe(0);
  });
});
