import Papa from 'papaparse';
import { ColumnPlan, planColumns } from './csv-values';

/** Why an upload is refused before any job exists (each becomes a 400). */
export type CsvRejection = 'empty' | 'binary' | 'encoding' | 'no_header' | 'no_email_column';

export type CsvInspection = { ok: true; header: string[]; plan: ColumnPlan } | { ok: false; reason: CsvRejection };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const CHUNK_CHARS = 64 * 1024;

function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** UTF-8 text of the file without its BOM; throws on invalid UTF-8. */
export function decodeCsv(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(hasBom(bytes) ? bytes.subarray(3) : bytes);
}

/**
 * The line ending used by the file, from its first line break (a lone `\r` counts too).
 * Passed to papaparse explicitly so a chunked parse cannot guess differently per chunk.
 */
export function detectNewline(text: string): '\n' | '\r\n' | '\r' {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf < 0) return cr < 0 ? '\n' : '\r';
  if (cr < 0) return '\n';
  if (cr < lf - 1) return '\r';
  return cr === lf - 1 ? '\r\n' : '\n';
}

function parseOptions(text: string): Papa.ParseConfig {
  return { header: false, delimiter: ',', quoteChar: '"', escapeChar: '"', newline: detectNewline(text), skipEmptyLines: false };
}

/** The first record of the text (the header row), or null when the text has none. */
export function readHeader(text: string): string[] | null {
  const sample = text.slice(0, CHUNK_CHARS * 4);
  const result = Papa.parse<string[]>(sample, { ...parseOptions(text), preview: 1 });
  const header = result.data[0];
  return header && header.some((cell) => cell.trim() !== '') ? header : null;
}

/**
 * Upload-time checks, cheap enough for the request: the bytes are text (no NUL), valid UTF-8
 * (a BOM is allowed), and the header row names an `email` column.
 */
export function inspectCsv(bytes: Uint8Array): CsvInspection {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (bytes.includes(0)) return { ok: false, reason: 'binary' };
  let text: string;
  try {
    text = decodeCsv(bytes);
  } catch {
    return { ok: false, reason: 'encoding' };
  }
  const header = readHeader(text);
  if (!header) return { ok: false, reason: 'no_header' };
  const plan = planColumns(header);
  return plan ? { ok: true, header, plan } : { ok: false, reason: 'no_email_column' };
}

export interface CsvRecord {
  /** 1-based row number of the record; the header is row 1. Quoted line breaks do not add rows. */
  row: number;
  cells: string[];
}

/**
 * Streams the records of a decoded CSV in chunks of about `chunkChars` characters with papaparse's
 * chunk mode: the parser pauses after each chunk until the consumer asks for the next one, so
 * memory holds one chunk of records however large the file. Row 1 is the header.
 */
export async function* csvRecordChunks(text: string, chunkChars = CHUNK_CHARS * 4): AsyncGenerator<CsvRecord[]> {
  const ready: CsvRecord[][] = [];
  let row = 0;
  let done = false;
  let parser: Papa.Parser | undefined;
  let wake: (() => void) | undefined;
  const options = parseOptions(text);
  // The line break ending the last record does not start another (blank) one.
  const body = text.endsWith(options.newline!) ? text.slice(0, -options.newline!.length) : text;
  Papa.parse<string[]>(body, {
    ...options,
    chunkSize: chunkChars,
    chunk: (results: Papa.ParseResult<string[]>, handle: Papa.Parser) => {
      parser = handle;
      handle.pause();
      ready.push(results.data.map((cells) => ({ row: ++row, cells })));
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  for (;;) {
    const records = ready.shift();
    if (records) {
      if (records.length > 0) yield records;
      if (!done) parser?.resume();
      continue;
    }
    if (done) return;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}

/** Record by record over `csvRecordChunks`. */
export async function* csvRecords(text: string, chunkChars?: number): AsyncGenerator<CsvRecord> {
  for await (const records of csvRecordChunks(text, chunkChars)) yield* records;
}

/** Records after the header with at least one non-empty cell: the job's `totalRows`, known before writing. */
export function countDataRecords(text: string): number {
  let count = -1;
  Papa.parse<string[]>(text, {
    ...parseOptions(text),
    step: (result) => {
      if (count < 0) count = 0;
      else if (result.data.some((cell) => cell.trim() !== '')) count += 1;
    },
  });
  return Math.max(count, 0);
}
