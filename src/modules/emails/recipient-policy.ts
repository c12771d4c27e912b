import { Fragment, raw, sql } from '../../platform/database/sql-fragment';
import { suppressedSql } from './sql/suppressions.sql';
import { isTopicMember, topicMemberSql, topicRuleSql, type TopicRule } from '../topics';
import { contactConsentSql, erasedAddressSql, type ContactConsent } from '../contacts';
import type { EmailType } from './entities/email.entity';

/**
 * Who gets an email of a type: the one rule, in TS (for recipients in hand: `/v1/send`, workflow
 * steps, the hand-over re-check) and in SQL (for audiences: campaign fan-out and previews),
 * side by side. `recipient-policy.spec.ts` runs one table of cases through both.
 *
 * Reasons in precedence order (the first that applies is reported): an address that cannot be
 * mailed, then suppression (the stronger, address-level signal), then an erased contact's address
 * (MARKETING only, until it subscribes explicitly; docs/personal-data.md), then unsubscription, then not
 * being a member of the mail's topic (a campaign with a topic), then a snooze that has not ended
 * (MARKETING only; compared with now(), so it ends by itself). Persisted in `emails.error` of
 * `skipped` rows (campaign stats group by it).
 */
export type RecipientSkipReason = 'invalid_email' | 'suppressed' | 'erased' | 'unsubscribed' | 'topic' | 'snoozed';

/** The types that respect unsubscription and suppression (also a SQL parameter); TRANSACTIONAL ignores both. */
export const SUBSCRIPTION_TYPES: readonly EmailType[] = ['MARKETING', 'HEADLESS'];

export const respectsSubscription = (type: EmailType): boolean => SUBSCRIPTION_TYPES.includes(type);

/** A loose address check (contacts written before stricter validation, or imported); the API's own checks are stricter. */
const VALID_ADDRESS = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
const validAddress = new RegExp(VALID_ADDRESS);

/** What the rule needs to know of a recipient. */
export interface RecipientFacts {
  email: string;
  /** The address is on the project's suppression list. */
  suppressed: boolean;
  /** The address is on the project's erased list (MARKETING mail skips it); absent: not known to be. */
  erased?: boolean;
  subscribed: boolean;
  /** The contact's snooze end, if any: MARKETING mail is skipped while it lies ahead. */
  snoozedUntil?: Date | null;
  /** Membership of the mail's topic; absent when the mail has no topic. */
  topicMember?: boolean;
}

/** The one type a snooze holds back (HEADLESS is the contact's own business mail, TRANSACTIONAL ignores consent). */
const SNOOZE_TYPE: EmailType = 'MARKETING';
/** The one type an erased address is held back from (as a snooze, HEADLESS is the contact's own business). */
const ERASED_TYPE: EmailType = 'MARKETING';

/** Why a send of `type` to this recipient is skipped, or null. */
export function skipReason(type: EmailType, r: RecipientFacts): RecipientSkipReason | null {
  if (!validAddress.test(r.email)) return 'invalid_email';
  if (!respectsSubscription(type)) return null;
  if (r.suppressed) return 'suppressed';
  if (type === ERASED_TYPE && r.erased) return 'erased';
  if (!r.subscribed) return 'unsubscribed';
  if (r.topicMember === false) return 'topic';
  if (type === SNOOZE_TYPE && r.snoozedUntil && r.snoozedUntil.getTime() > Date.now()) return 'snoozed';
  return null;
}

/** The same facts as SQL expressions of the caller's statement (trusted text, never input). */
export interface RecipientColumns {
  projectId: string;
  /** The normalized address (as stored on contacts and suppressions). */
  email: string;
  subscribed: string;
  /** The contact's `snoozed_until` (timestamptz, may be NULL). */
  snoozedUntil: string;
  /** The contact's topic choices (jsonb), for the mail's topic. */
  topics: string;
}

/** A contacts row aliased `c`: what audiences are made of. */
export const CONTACT_COLUMNS: RecipientColumns = { projectId: 'c.project_id', email: 'c.email', subscribed: 'c.subscribed', snoozedUntil: 'c.snoozed_until', topics: 'c.topics' };

/** `skipReason` in SQL: the reason as text, or NULL; `topic`: the mail's topic, if any. */
export function skipReasonSql(type: EmailType, r: RecipientColumns = CONTACT_COLUMNS, topic?: TopicRule | null): Fragment {
  const invalid = sql`WHEN ${raw(r.email)} !~ ${VALID_ADDRESS} THEN 'invalid_email'`;
  if (!respectsSubscription(type)) return sql`CASE ${invalid} END`;
  const notMember = topic ? sql` WHEN NOT (${topicMemberSql(r.topics, topic)}) THEN 'topic'` : sql``;
  const snoozed = type === SNOOZE_TYPE ? sql` WHEN ${raw(r.snoozedUntil)} > now() THEN 'snoozed'` : sql``;
  const erased = type === ERASED_TYPE ? sql` WHEN ${raw(erasedAddressSql(r.projectId, r.email))} THEN 'erased'` : sql``;
  return sql`CASE ${invalid} WHEN ${raw(suppressedSql(r))} THEN 'suppressed'${erased} WHEN NOT ${raw(r.subscribed)} THEN 'unsubscribed'${notMember}${snoozed} END`;
}

/**
 * The recipient's state at hand-over, as columns of the pipeline's load of an email (alias `e`)
 * and its content row (alias `c`); `types`: a text[] parameter holding SUBSCRIPTION_TYPES. Read in
 * the load's one statement (a batch of emails at once), so what changed while the email waited
 * (a suppression, an unsubscription, a topic left, a snooze) is honoured by `handOverFacts`.
 */
export const handOverFactsSql = (types: string): string => {
  const address = { projectId: 'e.project_id', email: 'lower(btrim(e.to_address))' };
  return `CASE WHEN e.type = ANY(${types}) THEN ${suppressedSql(address)} ELSE false END AS hand_over_suppressed,
          CASE WHEN e.type = ANY(${types}) THEN ${contactConsentSql(address.projectId, address.email)} END AS hand_over_consent,
          CASE WHEN e.type = ANY(${types}) AND c.topic_id IS NOT NULL THEN ${topicRuleSql('c.topic_id')} END AS hand_over_topic,
          CASE WHEN e.type = '${ERASED_TYPE}' THEN ${erasedAddressSql(address.projectId, address.email)} ELSE false END AS hand_over_erased`;
};

/** The columns `handOverFactsSql` reads (null for the types that ignore consent). */
export interface HandOverRow {
  hand_over_suppressed: boolean;
  /** The project's contact with the recipient's address, if any. */
  hand_over_consent: ContactConsent | null;
  /** The mail's topic (a campaign's), if any and still there. */
  hand_over_topic: TopicRule | null;
  /** The address is on the project's erased list (read for MARKETING mail only). */
  hand_over_erased: boolean;
}

/**
 * The facts `skipReason` decides on at hand-over. An address no contact has counts as subscribed
 * and in every topic (as a recipient with no contact does when the email is written).
 */
export function handOverFacts(email: string, r: HandOverRow): RecipientFacts {
  const consent = r.hand_over_consent;
  return {
    email,
    suppressed: r.hand_over_suppressed,
    erased: r.hand_over_erased,
    subscribed: consent?.subscribed ?? true,
    snoozedUntil: consent?.snoozedUntil ? new Date(consent.snoozedUntil) : null,
    topicMember: consent && r.hand_over_topic ? isTopicMember(consent.topics, r.hand_over_topic) : undefined,
  };
}
