import { isEmail } from 'class-validator';
import type { CsvRecord } from './csv-file';
import { ColumnPlan, CsvFieldType, typeCell } from './csv-values';

/** Persisted in import job errors: renaming one changes what clients read. */
export type ImportRowReason = 'missing_email' | 'invalid_email' | 'duplicate_in_file';

export interface ImportRowError {
  row: number;
  email: string;
  reason: ImportRowReason;
}

export type RowOutcome =
  | { kind: 'blank' }
  | { kind: 'skip'; error: ImportRowError }
  | {
      kind: 'contact';
      row: number;
      email: string;
      data: Record<string, string | number | boolean>;
      types: Array<[string, CsvFieldType]>;
      /** An earlier row of the file had the same email; this row merges into it. */
      duplicate: boolean;
    };

/**
 * Addresses this pattern accepts are valid for class-validator's `isEmail` too (checked by the
 * unit spec); it spares the full check for the common shape, which dominates an import's CPU.
 * Anything else goes through `isEmail`, so both paths agree with the API's `@IsEmail()`.
 */
const COMMON_EMAIL = /^[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function isValidEmail(email: string): boolean {
  const at = email.indexOf('@');
  if (email.length <= 254 && at > 0 && at <= 64 && COMMON_EMAIL.test(email)) return true;
  return isEmail(email);
}

/** Emails are stored trimmed and lowercased (docs/decisions.md#general). */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * Turns records into row outcomes. Stateful only in the emails it has seen, so replaying the
 * same records (a resumed job) rebuilds the same state.
 */
export class ImportRowReader {
  private readonly seen = new Set<string>();

  constructor(private readonly plan: ColumnPlan) {}

  read(record: CsvRecord): RowOutcome {
    const { cells, row } = record;
    if (cells.every((cell) => cell.trim() === '')) return { kind: 'blank' };
    const rawEmail = (cells[this.plan.emailIndex] ?? '').trim();
    if (rawEmail === '') return { kind: 'skip', error: { row, email: '', reason: 'missing_email' } };
    const email = normalizeEmail(rawEmail);
    if (!isValidEmail(email)) return { kind: 'skip', error: { row, email: rawEmail, reason: 'invalid_email' } };
    const data: Record<string, string | number | boolean> = {};
    const typeOf = new Map<string, CsvFieldType>();
    for (const { index, key } of this.plan.columns) {
      const typed = typeCell(cells[index] ?? '');
      if (!typed) continue;
      data[key] = typed.value;
      typeOf.set(key, typed.type);
    }
    const duplicate = this.seen.has(email);
    this.seen.add(email);
    return { kind: 'contact', row, email, data, types: [...typeOf], duplicate };
  }
}

export interface PendingContact {
  email: string;
  data: Record<string, string | number | boolean>;
}

/**
 * One batch of rows to write together: at most one entry per email (a repeated email merges
 * into the earlier entry, later cells winning), the row errors, and the first type seen per key.
 */
export class ImportBatch {
  readonly contacts = new Map<string, PendingContact>();
  readonly errors: ImportRowError[] = [];
  readonly fieldTypes = new Map<string, CsvFieldType>();
  /** Data rows read (blank records excluded). */
  rows = 0;
  /** Rows that name a valid email, duplicates included: each ends up imported or updated. */
  contactRows = 0;
  skipped = 0;
  /** Row number of the last record added, blank or not: the resume cursor after this batch. */
  lastRow = 0;
  /** Repeats an email of an earlier batch: written only after that batch committed, so later cells win. */
  repeatsEarlierBatch = false;

  add(record: CsvRecord, outcome: RowOutcome): void {
    this.lastRow = record.row;
    if (outcome.kind === 'blank') return;
    this.rows += 1;
    if (outcome.kind === 'skip') {
      this.skipped += 1;
      this.errors.push(outcome.error);
      return;
    }
    this.contactRows += 1;
    if (outcome.duplicate) this.errors.push({ row: outcome.row, email: outcome.email, reason: 'duplicate_in_file' });
    for (const [key, type] of outcome.types) if (!this.fieldTypes.has(key)) this.fieldTypes.set(key, type);
    const pending = this.contacts.get(outcome.email);
    if (pending) Object.assign(pending.data, outcome.data);
    else {
      if (outcome.duplicate) this.repeatsEarlierBatch = true;
      this.contacts.set(outcome.email, { email: outcome.email, data: { ...outcome.data } });
    }
  }

  get size(): number {
    return this.rows;
  }
}
