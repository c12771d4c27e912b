import Papa from 'papaparse';
import type { FieldType } from '../data/field-types';
import type { ContactRow } from '../contacts.rows';
import { fromContactRow } from '../contacts.rows';
import { toContactResponse } from '../dto/contact.response';

/** A project's data key and its type, as the contact field descriptors give it (`ContactFieldsService.keyTypes`). */
export interface KeyType {
  key: string;
  type: FieldType;
}

/** The CSV's first columns, named as the contact response names them; one `data.<key>` column per data key follows. */
export const CSV_CONTACT_COLUMNS = ['id', 'email', 'subscribed', 'createdAt', 'updatedAt'] as const;

/** The CSV header: the contact's columns, then `data.<key>` per key (nested keys by their dotted path, as filters name them). */
export function csvHeader(keys: readonly KeyType[]): string[] {
  return [...CSV_CONTACT_COLUMNS, ...keys.map((k) => `data.${k.key}`)];
}

/**
 * A value of `data` in its cell, as its key's type reads it: dates as stored (ISO 8601, the only
 * form a `date` key takes), booleans `true`/`false`, numbers plain, lists (typed `string`) and
 * objects as JSON, absent or null as an empty cell. The cell follows the value's own JSON type, so
 * a value that does not have its key's type (the first value fixes it) is written as it is, never converted.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** The value at a key: the top-level key itself, else the dotted path through nested objects. */
export function dataValue(data: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(data, key)) return data[key];
  let at: unknown = data;
  for (const part of key.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** One contact as its CSV record (cells in `csvHeader`'s order). */
export function csvRecord(row: ContactRow, keys: readonly KeyType[]): string[] {
  const contact = toContactResponse(fromContactRow(row));
  const data = contact.data;
  return [contact.id, contact.email, String(contact.subscribed), contact.createdAt, contact.updatedAt, ...keys.map((k) => csvCell(dataValue(data, k.key)))];
}

/**
 * A chunk of the CSV file: the header first when `header`, then one record per contact, each line
 * ended by CRLF (RFC 4180), quoted by papaparse where a cell holds a comma, a quote or a line break.
 */
export function csvChunk(rows: readonly ContactRow[], keys: readonly KeyType[], header: boolean): string {
  const lines = rows.map((row) => csvRecord(row, keys));
  if (header) lines.unshift(csvHeader(keys));
  return lines.length === 0 ? '' : `${Papa.unparse(lines, { newline: '\r\n' })}\r\n`;
}

/** A chunk of the NDJSON file: one contact per line, as `GET /contacts/:id` answers it. */
export function ndjsonChunk(rows: readonly ContactRow[]): string {
  return rows.map((row) => `${JSON.stringify(toContactResponse(fromContactRow(row)))}\n`).join('');
}
