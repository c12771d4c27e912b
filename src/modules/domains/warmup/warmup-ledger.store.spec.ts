import type { EntityManager } from 'typeorm';
import { WarmupLedger } from './warmup-ledger.store';

/** A transaction whose counters have `rooms[offset]` left on each day (SQL itself is covered by test/e2e/warmup.e2e-spec.ts). */
function fakeTransaction(rooms: number[] | null) {
  const added: Array<{ offset: number; count: number }> = [];
  const em = {
    query: async (sql: string, params: unknown[]) => {
      if (sql.trimStart().startsWith('UPDATE')) {
        added.push({ offset: params[1] as number, count: params[2] as number });
        return [];
      }
      if (!rooms) return [];
      const offset = params[2] as number;
      return [{ id: 'd1', room: rooms[offset] ?? 0, starts_at: new Date(Date.UTC(2026, 0, 1 + offset)) }];
    },
  } as unknown as EntityManager;
  return { em, added };
}

describe('WarmupLedger.book', () => {
  const ledger = new WarmupLedger();

  it('fills today, then each later day up to its room, and dates what falls after today', async () => {
    const { em, added } = fakeTransaction([1, 2, 5]);
    const days = await ledger.book(em, 'p', 'a@warm.example', 4);
    expect(days).toEqual([null, new Date(Date.UTC(2026, 0, 2)), new Date(Date.UTC(2026, 0, 2)), new Date(Date.UTC(2026, 0, 3))]);
    expect(added).toEqual([
      { offset: 0, count: 1 },
      { offset: 1, count: 2 },
      { offset: 2, count: 1 },
    ]);
  });

  it('holds nothing when no warming domain covers the sender', async () => {
    const { em, added } = fakeTransaction(null);
    expect(await ledger.book(em, 'p', 'a@cold.example', 3)).toEqual([null, null, null]);
    expect(added).toEqual([]);
  });

  it('skips a full day without counting on it', async () => {
    const { em, added } = fakeTransaction([0, 0, 3]);
    expect(await ledger.book(em, 'p', 'a@warm.example', 1)).toEqual([new Date(Date.UTC(2026, 0, 3))]);
    expect(added).toEqual([{ offset: 2, count: 1 }]);
  });
});
