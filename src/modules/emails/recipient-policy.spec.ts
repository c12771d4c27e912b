import { PGlite } from '@electric-sql/pglite';
import type { EmailType } from './entities/email.entity';
import { CONTACT_COLUMNS, handOverFacts, handOverFactsSql, HandOverRow, RecipientFacts, RecipientSkipReason, skipReason, skipReasonSql, SUBSCRIPTION_TYPES } from './recipient-policy';
import { isTopicMember, type TopicRule } from '../topics/topics.sql';

/**
 * The recipient rule written twice (TS for recipients in hand, SQL for audiences) holds to one
 * table of cases: each case is a contact row (and maybe a suppression) in a real, in-memory
 * PostgreSQL, and both sides must give the expected reason; so must the hand-over re-check, which
 * reads the facts in SQL (`handOverFactsSql`) and decides in TS.
 */
const P = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const TYPES: EmailType[] = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'];

interface Case extends Omit<RecipientFacts, 'topicMember'> {
  name: string;
  /** The contact's topic choices; with `topic`, the case is a mail of that topic. */
  topics?: Record<string, boolean>;
  topic?: TopicRule;
  expected: Record<EmailType, RecipientSkipReason | null>;
}

const FUTURE = new Date(Date.now() + 86_400_000);
const PAST = new Date(Date.now() - 86_400_000);
const NEWS: TopicRule = { slug: 'news', default: 'opt_out' };
const BETA: TopicRule = { slug: 'beta', default: 'opt_in' };
/** Snooze holds back MARKETING only. */
const marketing = (reason: RecipientSkipReason | null) => ({ TRANSACTIONAL: null, MARKETING: reason, HEADLESS: null });

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
  { name: 'snoozed until tomorrow', email: 'gil@example.com', suppressed: false, subscribed: true, snoozedUntil: FUTURE, expected: marketing('snoozed') },
  { name: 'a snooze that has ended', email: 'hal@example.com', suppressed: false, subscribed: true, snoozedUntil: PAST, expected: all(null) },
  { name: 'unsubscribed wins over snoozed', email: 'ida@example.com', suppressed: false, subscribed: false, snoozedUntil: FUTURE, expected: bulk('unsubscribed') },
  { name: 'opt_out topic, no choice: member', email: 'jan@example.com', suppressed: false, subscribed: true, topic: NEWS, expected: all(null) },
  { name: 'opt_out topic, chose false', email: 'kim@example.com', suppressed: false, subscribed: true, topics: { news: false }, topic: NEWS, expected: bulk('topic') },
  { name: 'opt_out topic, chose true', email: 'lea@example.com', suppressed: false, subscribed: true, topics: { news: true }, topic: NEWS, expected: all(null) },
  { name: 'opt_in topic, no choice: not a member', email: 'max@example.com', suppressed: false, subscribed: true, topics: { news: true }, topic: BETA, expected: bulk('topic') },
  { name: 'opt_in topic, chose true', email: 'ned@example.com', suppressed: false, subscribed: true, topics: { beta: true }, topic: BETA, expected: all(null) },
  { name: 'opt_in topic, chose false', email: 'ola@example.com', suppressed: false, subscribed: true, topics: { beta: false }, topic: BETA, expected: bulk('topic') },
  { name: 'topic wins over snoozed', email: 'pia@example.com', suppressed: false, subscribed: true, snoozedUntil: FUTURE, topics: { news: false }, topic: NEWS, expected: bulk('topic') },
  { name: 'member of the topic, snoozed', email: 'quy@example.com', suppressed: false, subscribed: true, snoozedUntil: FUTURE, topics: { beta: true }, topic: BETA, expected: marketing('snoozed') },
  { name: 'erased, created again (unsubscribed)', email: 'sam@example.com', suppressed: false, erased: true, subscribed: false, expected: { TRANSACTIONAL: null, MARKETING: 'erased', HEADLESS: 'unsubscribed' } },
  { name: 'erased, created again, subscribed but not explicitly', email: 'tom@example.com', suppressed: false, erased: true, subscribed: true, expected: marketing('erased') },
  { name: 'suppressed wins over erased', email: 'uma@example.com', suppressed: true, erased: true, subscribed: false, expected: bulk('suppressed') },
  { name: 'erased wins over topic and snooze', email: 'vic@example.com', suppressed: false, erased: true, subscribed: true, snoozedUntil: FUTURE, topics: { news: false }, topic: NEWS, expected: { TRANSACTIONAL: null, MARKETING: 'erased', HEADLESS: 'topic' } },
  { name: 'unsubscribed wins over topic', email: 'rui@example.com', suppressed: false, subscribed: false, topics: { news: false }, topic: NEWS, expected: bulk('unsubscribed') },
];

/** The facts TS sees: topic membership by the topics module's rule (what the SQL side computes from the choices). */
const factsOf = (c: Case): RecipientFacts => ({ ...c, topicMember: c.topic ? isTopicMember(c.topics, c.topic) : undefined });

let db: PGlite;
const TOPIC_IDS: Record<string, string> = { news: '00000000-0000-4000-8000-00000000000a', beta: '00000000-0000-4000-8000-00000000000b' };

beforeAll(async () => {
  db = new PGlite();
  await db.exec(`
    CREATE TABLE contacts (id text PRIMARY KEY, project_id uuid NOT NULL, email text NOT NULL, subscribed boolean NOT NULL, topics jsonb NOT NULL DEFAULT '{}', snoozed_until timestamptz);
    CREATE TABLE suppressions (project_id uuid NOT NULL, email text NOT NULL, PRIMARY KEY (project_id, email));
    CREATE TABLE topics (id uuid PRIMARY KEY, slug text NOT NULL, subscription_default text NOT NULL);
    CREATE TABLE erasure_salts (project_id uuid PRIMARY KEY, salt bytea NOT NULL);
    CREATE TABLE erased_addresses (project_id uuid NOT NULL, address_hash bytea NOT NULL, PRIMARY KEY (project_id, address_hash));
    INSERT INTO erasure_salts VALUES ('${P}', '\\x0102'), ('${OTHER}', '\\x0304');
  `);
  for (const t of [NEWS, BETA]) await db.query(`INSERT INTO topics VALUES ($1, $2, $3)`, [TOPIC_IDS[t.slug], t.slug, t.default]);
  for (const [i, c] of CASES.entries()) {
    await db.query(`INSERT INTO contacts VALUES ($1, $2, $3, $4, $5, $6)`, [`c${i}`, P, c.email, c.subscribed, JSON.stringify(c.topics ?? {}), c.snoozedUntil ?? null]);
    // Another project's suppression of the same address must not count.
    await db.query(`INSERT INTO suppressions VALUES ($1, $2)`, [c.suppressed ? P : OTHER, c.email]);
    // Likewise an erasure in another project, or a hash made with another project's salt.
    await db.query(`INSERT INTO erased_addresses SELECT $1, sha256(s.salt || convert_to($2, 'UTF8')) FROM erasure_salts s WHERE s.project_id = $3`, [c.erased ? P : OTHER, c.email, c.erased ? P : OTHER]);
    await db.query(`INSERT INTO erased_addresses SELECT $1, sha256(s.salt || convert_to($2, 'UTF8')) FROM erasure_salts s WHERE s.project_id = $3 ON CONFLICT DO NOTHING`, [P, c.email, OTHER]);
  }
});
afterAll(() => db?.close());

async function sqlReason(type: EmailType, id: string, topic?: TopicRule): Promise<RecipientSkipReason | null> {
  const reason = skipReasonSql(type, CONTACT_COLUMNS, topic).toQuery(1);
  const res = await db.query<{ reason: RecipientSkipReason | null }>(`SELECT ${reason.text} AS reason FROM contacts c WHERE c.id = $1`, [id, ...reason.values]);
  expect(res.rows).toHaveLength(1);
  return res.rows[0].reason;
}

/** The hand-over's reason for an email of `type` to the case's address (an address in upper case, as a caller may have written it), with the mail's topic on its content row. */
async function handOverReason(type: EmailType, c: Case): Promise<RecipientSkipReason | null> {
  const res = await db.query<HandOverRow>(
    `SELECT ${handOverFactsSql('$4::text[]')} FROM (SELECT $1::uuid AS project_id, $2::text AS to_address, $3::text AS type) e, (SELECT $5::uuid AS topic_id) c`,
    [P, ` ${c.email.toUpperCase()}`, type, SUBSCRIPTION_TYPES, c.topic ? TOPIC_IDS[c.topic.slug] : null],
  );
  return skipReason(type, handOverFacts(c.email, res.rows[0]));
}

describe('recipient policy: TS and SQL agree', () => {
  for (const [i, c] of CASES.entries()) {
    for (const type of TYPES) {
      it(`${c.name}, ${type}: ${c.expected[type] ?? 'sent'}`, async () => {
        expect(skipReason(type, factsOf(c))).toBe(c.expected[type]);
        expect(await sqlReason(type, `c${i}`, c.topic)).toBe(c.expected[type]);
        expect(await handOverReason(type, c)).toBe(c.expected[type]);
      });
    }
  }
});
