import { PGlite } from '@electric-sql/pglite';
import type { EmailType } from './entities/email.entity';
import { RecipientFacts, RecipientSkipReason, skipReason, skipReasonSql } from './recipient-policy';

/**
 * The recipient rule written twice (TS for recipients in hand, SQL for audiences) holds to one
 * table of cases: each case is a contact row (and maybe a suppression) in a real, in-memory
 * PostgreSQL, and both sides must give the expected reason.
 */
const P = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const TYPES: EmailType[] = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'];

interface Case extends RecipientFacts {
  name: string;
  expected: Record<EmailType, RecipientSkipReason | null>;
}

const all = (reason: RecipientSkipReason | null) => ({ TRANSACTIONAL: reason, MARKETING: reason, HEADLESS: reason });
const bulk = (reason: RecipientSkipReason | null) => ({ TRANSACTIONAL: null, MARKETING: reason, HEADLESS: reason });

const CASES: Case[] = [
  { name: 'subscribed', email: 'ann@example.com', suppressed: false, subscribed: true, expected: all(null) },
  { name: 'unsubscribed', email: 'bob@example.com', suppressed: false, subscribed: false, expected: bulk('unsubscribed') },
  { name: 'suppressed', email: 'cat@example.com', suppressed: true, subscribed: true, expected: bulk('suppressed') },
  { name: 'suppressed wins over unsubscribed', email: 'dan@example.com', suppressed: true, subscribed: false, expected: bulk('suppressed') },
  { name: 'invalid address (no dot in the domain)', email: 'eve@localhost', suppressed: false, subscribed: true, expected: all('invalid_email') },
  { name: 'invalid address (whitespace)', email: 'f g@example.com', suppressed: false, subscribed: true, expected: all('invalid_email') },
  { name: 'invalid address (two @)', email: 'h@i@example.com', suppressed: false, subscribed: true, expected: all('invalid_email') },
  { name: 'invalid wins over suppressed and unsubscribed', email: 'no-at-sign', suppressed: true, subscribed: false, expected: all('invalid_email') },
];

let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(`
    CREATE TABLE contacts (id text PRIMARY KEY, project_id uuid NOT NULL, email text NOT NULL, subscribed boolean NOT NULL);
    CREATE TABLE suppressions (project_id uuid NOT NULL, email text NOT NULL, PRIMARY KEY (project_id, email));
  `);
  for (const [i, c] of CASES.entries()) {
    await db.query(`INSERT INTO contacts VALUES ($1, $2, $3, $4)`, [`c${i}`, P, c.email, c.subscribed]);
    // Another project's suppression of the same address must not count.
    await db.query(`INSERT INTO suppressions VALUES ($1, $2)`, [c.suppressed ? P : OTHER, c.email]);
  }
});
afterAll(() => db?.close());

async function sqlReason(type: EmailType, id: string): Promise<RecipientSkipReason | null> {
  const reason = skipReasonSql(type).toQuery(1);
  const res = await db.query<{ reason: RecipientSkipReason | null }>(`SELECT ${reason.text} AS reason FROM contacts c WHERE c.id = $1`, [id, ...reason.values]);
  expect(res.rows).toHaveLength(1);
  return res.rows[0].reason;
}

describe('recipient policy: TS and SQL agree', () => {
  for (const [i, c] of CASES.entries()) {
    for (const type of TYPES) {
      it(`${c.name}, ${type}: ${c.expected[type] ?? 'sent'}`, async () => {
        expect(skipReason(type, c)).toBe(c.expected[type]);
        expect(await sqlReason(type, `c${i}`)).toBe(c.expected[type]);
      });
    }
  }
});
