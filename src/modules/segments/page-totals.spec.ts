import { COUNT_REUSE_MS, KEEP_MIN_ROWS, PageTotals, reconcileTotal, SLOW_COUNT_MS } from './page-totals';

describe('reconcileTotal', () => {
  it('is exact on a page that ends the list, whatever the count said', () => {
    expect(reconcileTotal(0, 0, 20, 7)).toBe(7);
    expect(reconcileTotal(999, 40, 20, 5)).toBe(45);
    expect(reconcileTotal(3, 0, 20, 0)).toBe(0);
    expect(reconcileTotal(0, 20, 20, 20)).toBe(40); // exactly full, nothing beyond
  });

  it('keeps a count that agrees with a full page and raises one that cannot be true', () => {
    expect(reconcileTotal(1_000, 0, 20, 21)).toBe(1_000);
    expect(reconcileTotal(30, 40, 20, 21)).toBe(61);
  });

  it('caps the count at the offset of an empty page past the end', () => {
    expect(reconcileTotal(50, 60, 20, 0)).toBe(50);
    expect(reconcileTotal(90, 60, 20, 0)).toBe(60);
  });
});

describe('PageTotals', () => {
  let now = 0;
  const totals = new PageTotals(() => now);
  const counting = (n: number, ms: number) => jest.fn(async () => ((now += ms), n));

  it('keeps a slow count for its segment and definition only', async () => {
    expect(await totals.count('s1', 'a', counting(1_000_000, SLOW_COUNT_MS))).toBe(1_000_000);
    expect(totals.recent('s1', 'a')).toBe(1_000_000);
    expect(totals.recent('s1', 'b')).toBeNull();
    expect(totals.recent('s2', 'a')).toBeNull();
  });

  it('never keeps a fast count', async () => {
    expect(await totals.count('fast', 'k', counting(12, SLOW_COUNT_MS - 1))).toBe(12);
    expect(totals.recent('fast', 'k')).toBeNull();
  });

  it('never keeps a small count, however slow (a busy machine must not make a small total stale)', async () => {
    expect(await totals.count('small', 'k', counting(KEEP_MIN_ROWS - 1, 10 * SLOW_COUNT_MS))).toBe(KEEP_MIN_ROWS - 1);
    expect(totals.recent('small', 'k')).toBeNull();
  });

  it('forgets a kept count after COUNT_REUSE_MS, or when told to', async () => {
    await totals.count('s3', 'k', counting(5_000, SLOW_COUNT_MS + 10));
    now += COUNT_REUSE_MS - 1_000;
    expect(totals.recent('s3', 'k')).toBe(5_000);
    now += 2_000;
    expect(totals.recent('s3', 'k')).toBeNull();
    await totals.count('s4', 'k', counting(7_000, SLOW_COUNT_MS));
    totals.forget('s4');
    expect(totals.recent('s4', 'k')).toBeNull();
  });
});
