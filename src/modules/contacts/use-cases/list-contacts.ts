import type { DataSource } from 'typeorm';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../../platform/http/pagination';
import { isContactId } from '../contact-id';
import { ContactResponse, CONTACT_COLUMNS, ContactRow, fromContactRow, toContactResponse } from '../dto/contact.response';
import type { ListContactsQuery } from '../dto/list-contacts.query';

type SortKey = 'email' | 'createdAt';
type Dir = 'asc' | 'desc';

interface ContactsCursor extends Record<string, unknown> {
  s: SortKey;
  d: Dir;
  /** The sort value of the last row (email, or created_at as exact PostgreSQL text). */
  v: string;
  id: string;
}

const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Keyset pagination over (email) or (created_at, id). A cursor carries its own sort and
 * direction, so later pages continue the order they started with. Search is a case-insensitive
 * substring of the email (emails are stored lowercased), served by the trigram index.
 */
export async function listContacts(db: DataSource, projectId: string, query: ListContactsQuery): Promise<CursorPage<ContactResponse>> {
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
  if (query.search) {
    params.push(`%${escapeLike(query.search.trim().toLowerCase())}%`);
    filters.push(`email LIKE $${params.length}`);
  }
  if (query.subscribed !== undefined) {
    params.push(query.subscribed);
    filters.push(`subscribed = $${params.length}`);
  }
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

  const [rows, countRows] = await Promise.all([
    db.query(pageSql, params) as Promise<Array<ContactRow & { created_key: string }>>,
    cursor ? Promise.resolve([{ total: 0 }]) : (db.query(`SELECT count(*)::int AS total FROM contacts WHERE ${countFilters.join(' AND ')}`, countParams) as Promise<Array<{ total: number }>>),
  ]);
  return cursorPage(
    rows,
    limit,
    (row) => toContactResponse(fromContactRow(row)),
    (last) => ({ s: sort, d: dir, v: sort === 'email' ? last.email : last.created_key, id: last.id }),
    countRows[0].total,
  );
}
