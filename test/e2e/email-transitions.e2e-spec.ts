import { randomUUID } from 'node:crypto';
import { EmailStatusStore } from '../../src/modules/emails/email-status.store';
import { useSession, whiteBox } from '../support/session';

/**
 * Every transition of the email pipeline finds its emails by primary key, whatever the planner's
 * statistics say. A campaign's backlog is thousands of `queued` emails, while the statistics of a
 * table of mostly finished mail put a row or two in the partial indexes on unfinished emails; a
 * plain status guard let the planner read the whole backlog from those indexes for every claim and
 * sent record (bench/README, "Campaigns").
 *
 * A white-box suite: the statements and their plans are the subject (no API shows a plan), with
 * emails inserted as rows so that the statistics can be made stale on purpose.
 */
describe('email transitions', () => {
  const s = useSession();

  it('find their emails by primary key while the statistics say no email is unfinished', async () => {
    const box = whiteBox(s.app);
    const ids = await box.query<{ id: string }>(
      `INSERT INTO emails (type, from_address, to_address, status, campaign_id)
       SELECT 'MARKETING', 'news@example.com', 'r' || g || '@example.com', 'sent', gen_random_uuid() FROM generate_series(1, 3000) g
       RETURNING id`,
    );
    await box.query('ANALYZE emails');
    // The backlog arrives after the statistics were taken: 2,000 queued, 20 of them being sent.
    const backlog = ids.slice(0, 2000).map((r) => r.id);
    await box.query(`UPDATE emails SET status = 'queued' WHERE id = ANY($1::uuid[])`, [backlog]);
    await box.query(`UPDATE emails SET status = 'sending', lease_until = now() + interval '1 minute' WHERE id = ANY($1::uuid[])`, [backlog.slice(0, 20)]);

    // Capture what the store sends, then ask for each statement's plan with the same parameters.
    const store = s.app.runtime.app.get(EmailStatusStore);
    const statements: Array<{ sql: string; params: unknown[] }> = [];
    const query = box.dataSource.query.bind(box.dataSource);
    const spy = jest.spyOn(box.dataSource, 'query').mockImplementation((sql, params, queryRunner) => {
      if (/^\s*(WITH|UPDATE)\b/.test(sql) && /UPDATE emails\b/.test(sql)) statements.push({ sql, params: (params as unknown[]) ?? [] });
      return query(sql, params, queryRunner);
    });
    try {
      const outcome = { subject: 'S', messageId: '<m@example.com>', providerMessageId: null, delivered: false, events: [] };
      const tokens = [randomUUID(), randomUUID()];
      expect(await Promise.all([store.claim(backlog[100], 'S', '<a@example.com>', tokens[0]), store.claim(backlog[101], 'S', '<b@example.com>', tokens[1])])).toEqual([true, true]);
      // Only the claim's own token takes it back.
      expect(await store.unclaim(backlog[101], tokens[0])).toBe(false);
      expect(await store.unclaim(backlog[101], tokens[1])).toBe(true);
      expect(await store.unclaim(backlog[101], tokens[1])).toBe(false);
      expect((await Promise.all([store.markSent(backlog[0], outcome), store.markSent(backlog[1], outcome)])).map((r) => r.recorded)).toEqual([true, true]);
      expect(await store.markBounced(backlog[2], '550 no such user')).toBe(true);
      expect(await store.markFailed(backlog[3], 'gave up')).toBe(true);
      await store.release(backlog[4], '421 try later');
      expect(await store.markSkipped(backlog[200], 'unsubscribed')).toBe(true);
    } finally {
      spy.mockRestore();
    }

    expect(statements.length).toBeGreaterThanOrEqual(6);
    // `emails` is partitioned by month: a plan names each partition's index, which is read here as the table's index it belongs to.
    const partitionIndexes = await box.query<{ part: string; parent: string }>(
      `SELECT c.relname AS part, p.relname AS parent FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'i'`,
    );
    const parentOf = new Map(partitionIndexes.map((r) => [r.part, r.parent]));
    for (const { sql, params } of statements) {
      const [row] = await box.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      const plan = JSON.stringify(row['QUERY PLAN']).replace(/"Index Name":"([^"]+)"/g, (_, name: string) => `"Index Name":"${parentOf.get(name) ?? name}"`);
      expect({ sql, usesPrimaryKey: plan.includes('"emails_pkey"'), readsBacklog: /unfinished_idx/.test(plan) }).toEqual({ sql, usesPrimaryKey: true, readsBacklog: false });
    }
    // The transitions did what they say.
    // White-box: these rows belong to no project (inserted for the plans), so no project's GET /v1/emails shows them.
    const statuses = await box.query<{ id: string; status: string }>(`SELECT id, status FROM emails WHERE id = ANY($1::uuid[])`, [
      [backlog[0], backlog[2], backlog[3], backlog[4], backlog[100], backlog[101], backlog[200]],
    ]);
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [backlog[0]]: 'sent',
      [backlog[2]]: 'bounced',
      [backlog[3]]: 'failed',
      [backlog[4]]: 'queued',
      [backlog[100]]: 'sending',
      [backlog[101]]: 'queued',
      [backlog[200]]: 'skipped',
    });
  });
});
