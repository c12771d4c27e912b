import { PGlite } from '@electric-sql/pglite';
import { raw, sql } from '../../../platform/database/sql-fragment';
import { matches } from '../event-patterns';
import { nameMatchesSql } from './event-patterns.sql';

/** The replay matches names in SQL, the fan-out in TS: one set of cases holds both to the same answers. */
let db: PGlite;
beforeAll(async () => {
  db = new PGlite();
  await db.waitReady;
});
afterAll(() => db?.close());

const NAMES = ['email.open', 'email.link.click', 'email', 'emails.open', 'purchase', 'purchases', 'segment.vip_x.entry', 'segment', 'contact.unsubscribed', 'a%b.c', 'a_b.c', 'axb.c'];
const PATTERN_SETS = [['*'], ['email.*'], ['purchase'], ['email.*', 'purchase'], ['segment.*', 'contact.unsubscribed'], ['a%b.*'], ['a_b.*'], ['email.link.*'], ['nothing']];

describe('nameMatchesSql agrees with matches', () => {
  it.each(PATTERN_SETS.map((p) => [p.join(' ')!, p]))('%s', async (_label, patterns) => {
    const q = sql`SELECT n FROM unnest(${NAMES}::text[]) AS t(n) WHERE ${nameMatchesSql(raw('t.n'), patterns as string[])} ORDER BY n`;
    const rows = (await db.query<{ n: string }>(q.text, q.values)).rows.map((r) => r.n);
    expect(rows).toEqual(NAMES.filter((n) => matches(patterns as string[], n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
