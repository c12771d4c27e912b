import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import type { PriorityLane } from '../../platform/database/priority-lane';
import { EmailStatusStore, SentOutcome } from './email-status.store';

const outcome: SentOutcome = { subject: 's', messageId: '<m@x>', providerMessageId: '250 ok', delivered: false, events: [] };

/** A priority lane whose statements end only when the test says so, beside a pool that must not be used. */
function gatedLane() {
  const statements: Array<{ ids: string[]; end: () => void }> = [];
  const query = jest.fn(
    (_sql: string, params: unknown[]) =>
      new Promise((resolve) => {
        const ids = params[1] as string[];
        statements.push({ ids, end: () => resolve([{ ids, events: null }]) });
      }),
  );
  const pool = jest.fn(() => Promise.reject(new Error('an outcome waited for the pool')));
  return { lane: { query } as unknown as PriorityLane, dataSource: { query: pool } as unknown as DataSource, statements };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('EmailStatusStore.markSent', () => {
  const config = { email: { sendConcurrency: 32, sendLeaseSeconds: 30 } } as AppConfig;

  // Until the outcome lands, a crash leaves the email `uncertain` though it arrived: the window
  // must not include the wait for an unrelated statement.
  it('writes an ended hand-over at once while another outcome statement is still in flight', async () => {
    const { lane, dataSource, statements } = gatedLane();
    const store = new EmailStatusStore(dataSource, config, lane);
    const first = store.markSent('a', outcome);
    await turn();
    expect(statements).toHaveLength(1);

    const second = store.markSent('b', outcome);
    await turn();
    expect(statements.map((s) => s.ids)).toEqual([['a'], ['b']]);

    statements[1].end();
    await expect(second).resolves.toEqual({ recorded: true, events: [] });
    statements[0].end();
    await expect(first).resolves.toEqual({ recorded: true, events: [] });
  });

  it('still writes the outcomes of one turn in one statement', async () => {
    const { lane, dataSource, statements } = gatedLane();
    const store = new EmailStatusStore(dataSource, config, lane);
    const written = Promise.all(['a', 'b', 'c'].map((id) => store.markSent(id, outcome)));
    await turn();
    expect(statements.map((s) => s.ids)).toEqual([['a', 'b', 'c']]);
    statements[0].end();
    expect((await written).map((r) => r.recorded)).toEqual([true, true, true]);
  });

  it('uses no more connections than the lane has: outcomes ending meanwhile go together in the next statement', async () => {
    const { lane, dataSource, statements } = gatedLane();
    const store = new EmailStatusStore(dataSource, config, lane);
    const first = [store.markSent('a', outcome)];
    await turn();
    first.push(store.markSent('b', outcome));
    await turn();
    const later = ['c', 'd', 'e'].map((id) => store.markSent(id, outcome));
    await turn();
    expect(statements.map((s) => s.ids)).toEqual([['a'], ['b']]);
    statements[0].end();
    await turn();
    await turn();
    expect(statements.map((s) => s.ids)).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    statements[1].end();
    statements[2].end();
    expect((await Promise.all([...first, ...later])).map((r) => r.recorded)).toEqual([true, true, true, true, true]);
  });
});
