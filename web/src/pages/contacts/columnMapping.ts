import Papa from 'papaparse';
import { DROPPED_KEYS, headerText, headerToKey, MAPPED_KEY, typeCell } from '../../../../src/modules/contacts/import/csv/csv-values';

/** The server's key rules and CSV typing, shared as they are (a pure module of the import). */
export { headerToKey };

/** Rows shown under the header in the mapping step. */
export const PREVIEW_ROWS = 5;

/** Longest key the server accepts (DATA_LIMITS.keyLength). */
export const MAX_KEY_LENGTH = 200;

export interface CsvPreview {
  header: string[];
  rows: string[][];
}

export interface MappedColumn {
  /** Header cell as the mapping names it (no BOM, no surrounding spaces). */
  header: string;
  /** Position of the first column with this header (a header given twice shows once). */
  index: number;
  isEmail: boolean;
  key: string;
  skip: boolean;
  /** The type the CSV rules give the sample cells (the first non-empty one), or null when all are empty. */
  sampleType: string | null;
}

/** Header and first rows of a CSV text, read with the server's parse options (comma, double quotes). */
export function previewCsv(text: string): CsvPreview | null {
  const body = text.replace(/^\uFEFF/, '');
  const result = Papa.parse<string[]>(body, { header: false, delimiter: ',', quoteChar: '"', escapeChar: '"', preview: PREVIEW_ROWS + 1, skipEmptyLines: 'greedy' });
  const [header, ...rows] = result.data;
  if (!header || header.every((cell) => cell.trim() === '')) return null;
  return { header, rows };
}

/**
 * A key without spaces for a header (`First Name` → `firstName`), so it is used in Liquid as a
 * plain `{{firstName}}`; falls back to the server's derived key when no word is left.
 */
export function suggestKey(header: string): string {
  const words = headerText(header).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return headerToKey(header);
  const [first, ...rest] = words;
  const camel = first.toLowerCase() + rest.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('');
  return /^\p{N}/u.test(camel) ? headerToKey(header) : camel;
}

/** One row per distinct header: the email column, then each other with its suggested key (reserved columns skipped). */
export function initialColumns(preview: CsvPreview): MappedColumn[] {
  const seen = new Set<string>();
  const columns: MappedColumn[] = [];
  let emailSeen = false;
  preview.header.forEach((cell, index) => {
    const text = headerText(cell);
    if (seen.has(text)) return;
    seen.add(text);
    const derived = headerToKey(cell);
    const isEmail = derived === 'email' && !emailSeen;
    if (isEmail) emailSeen = true;
    const sample = preview.rows.map((row) => typeCell(row[index] ?? '')).find((typed) => typed !== undefined);
    const reserved = derived === '' || DROPPED_KEYS.has(derived);
    columns.push({ header: text, index, isEmail, key: isEmail ? 'email' : suggestKey(cell), skip: !isEmail && reserved, sampleType: sample?.type ?? null });
  });
  return columns;
}

/** Why a column's key would be refused (the server's rules), or undefined. */
export function keyProblem(column: MappedColumn, columns: MappedColumn[]): string | undefined {
  if (column.isEmail || column.skip) return undefined;
  const key = column.key;
  if (key.trim() === '') return 'Give the key a name, or skip the column.';
  if (key.length > MAX_KEY_LENGTH) return `At most ${MAX_KEY_LENGTH} characters.`;
  if (!MAPPED_KEY.test(key)) return 'Letters, digits and "_", with spaces or dashes only between them (no dots).';
  if (DROPPED_KEYS.has(key.toLowerCase())) return `"${key}" is reserved for a contact field or a generated variable.`;
  const first = columns.find((other) => !other.isEmail && !other.skip && other.key === key);
  if (first && first !== column) return `The column "${first.header}" already uses this key.`;
  return undefined;
}

/** The `mapping` part of the upload: every column but the email one, its key or null to skip it. */
export function toMapping(columns: MappedColumn[]): Record<string, string | null> {
  return Object.fromEntries(columns.filter((c) => !c.isEmail).map((c) => [c.header, c.skip ? null : c.key]));
}
