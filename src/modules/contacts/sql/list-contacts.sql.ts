import { clampLimit, decodeCursor, PG_TIMESTAMP } from '../../../platform/http/pagination';
import { isContactId } from '../../events';
import { CONTACT_COLUMNS, type ContactListParams } from '../contacts.rows';
import { topicMemberSql, type TopicRule } from '../../topics';

export type SortKey = 'email' | 'createdAt';
export type Dir = 'asc' | 'desc';

interface ContactsCursor extends Record<string, unknown> {
  s: SortKey;
  d: Dir;
  /** The sort value of the last row (email, or created_at as exact PostgreSQL text). */
  v: string;
  id: string;
}

const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a search term as a prefix query (`acme ltd` → `acme:* & ltd:*`); null without a word. */
export function searchWordsQuery(term: string): string | null {
  const words = term.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** The words of the string values of `data` (migration ContactsSearch, index contacts_search_words_idx). */
const DATA_WORDS = `jsonb_to_tsvector('simple'::regconfig, data, '["string"]'::jsonb)`;

/**
 * `search`: the email contains the term (case-insensitive, trigram index), or every word of the
 * term begins a word of one string-typed field's value (`stringKeys`: the project's keys typed
 * `string`, nested ones dotted; `simple` text search, case-insensitive). The words index over
 * every string value of `data` finds the candidates; the exact test keeps string fields only (a
 * date-looking value of a date field, or a string stored under a number field, does not match).
 * The keys come as a parameter, not a subquery, so the plan's estimate stays small (a correlated
 * subquery's made PostgreSQL JIT-compile each search, +30 ms). `email LIKE` comes first: a term
 * most emails hold is counted without reading their data.
 */
function searchFilter(term: string, stringKeys: readonly string[], params: unknown[]): string {
  params.push(`%${escapeLike(term)}%`);
  const email = `email LIKE $${params.length}`;
  const words = searchWordsQuery(term);
  if (words === null || stringKeys.length === 0) return email;
  params.push(words, stringKeys);
  const [query, keys] = [`to_tsquery('simple', $${params.length - 1})`, `$${params.length}::text[]`];
  return `(${email} OR (${DATA_WORDS} @@ ${query} AND EXISTS (
      SELECT 1 FROM unnest(${keys}) AS k(key) WHERE to_tsvector('simple', data #>> string_to_array(k.key, '.')) @@ ${query})))`;
}

export interface ListContactsStatements {
  sort: SortKey;
  dir: Dir;
  limit: number;
  /** The page: `limit + 1` rows with `created_key` (created_at as exact PostgreSQL text). */
  page: { text: string; params: unknown[] };
  /** The filtered total, on a first page only (later pages carry a cursor and need none). */
  count: { text: string; params: unknown[] } | null;
}

/**
 * Keyset pagination over (email) or (created_at, id). A cursor carries its own sort and
 * direction, so later pages continue the order they started with. Search: `searchFilter`.
 */
export function listContactsStatements(projectId: string, query: ContactListParams, topic?: TopicRule, stringKeys: readonly string[] = []): ListContactsStatements {
  const limit = clampLimit(query.limit);
  const cursor = decodeCursor<ContactsCursor>(
    query.cursor,
    (c) =>
      (c.s === 'email' || (c.s === 'createdAt' && typeof c.v === 'string' && PG_TIMESTAMP.test(c.v))) &&
      (c.d === 'asc' || c.d === 'desc') &&
      typeof c.v === 'string' &&
      isContactId(c.id),
  );
  const sort: SortKey = cursor?.s ?? (query.sort === 'email' ? 'email' : 'createdAt');
  const dir: Dir = cursor?.d ?? (query.dir === 'asc' ? 'asc' : 'desc');

  const params: unknown[] = [projectId];
  const filters = ['project_id = $1'];
  const term = query.search?.trim().toLowerCase();
  if (term) {
    filters.push(searchFilter(term, stringKeys, params));
  }
  if (query.subscribed !== undefined) {
    params.push(query.subscribed);
    filters.push(`subscribed = $${params.length}`);
  }
  if (query.confirmation === 'none') filters.push('confirmation IS NULL');
  else if (query.confirmation) {
    params.push(query.confirmation);
    filters.push(`confirmation = $${params.length}`);
  }
  if (topic) {
    const member = topicMemberSql('topics', topic);
    filters.push(member.toText(params.length));
    params.push(...member.values);
  }
  if (query.snoozed !== undefined) filters.push(query.snoozed ? 'snoozed_until > now()' : '(snoozed_until IS NULL OR snoozed_until <= now())');
  const countParams = [...params];
  const countFilters = [...filters];
  const op = dir === 'asc' ? '>' : '<';
  if (cursor) {
    params.push(cursor.v, cursor.id);
    const [v, id] = [`$${params.length - 1}`, `$${params.length}`];
    filters.push(sort === 'email' ? `(email, id) ${op} (${v}, ${id})` : `(created_at, id) ${op} (${v}::timestamptz, ${id})`);
  }
  const order = sort === 'email' ? `email ${dir}, id ${dir}` : `created_at ${dir}, id ${dir}`;
  params.push(limit + 1);
  const pageSql = `SELECT ${CONTACT_COLUMNS}, created_at::text AS created_key FROM contacts
    WHERE ${filters.join(' AND ')} ORDER BY ${order} LIMIT $${params.length}`;
  return {
    sort,
    dir,
    limit,
    page: { text: pageSql, params },
    count: cursor ? null : { text: `SELECT count(*)::int AS total FROM contacts WHERE ${countFilters.join(' AND ')}`, params: countParams },
  };
}
