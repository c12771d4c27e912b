import Papa from 'papaparse';
import { Readable } from 'node:stream';
import { ColumnPlan, planColumns } from './csv-values';

/** Why an upload is refused before any job exists (each becomes a 400). */
export type CsvRejection = 'empty' | 'binary' | 'encoding' | 'no_header' | 'no_email_column';

export type CsvInspection = { ok: true; plan: ColumnPlan } | { ok: false; reason: CsvRejection };

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
  return plan ? { ok: true, plan } : { ok: false, reason: 'no_email_column' };
}

export interface CsvRecord {
  /** 1-based row number of the record; the header is row 1. Quoted line breaks do not add rows. */
  row: number;
  cells: string[];
}

function* textChunks(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += CHUNK_CHARS) yield text.slice(i, i + CHUNK_CHARS);
}

/**
 * Streams the records of a decoded CSV through papaparse with backpressure: the consumer's
 * awaits pause the parser. Yields the header as row 1.
 */
export async function* csvRecords(text: string): AsyncGenerator<CsvRecord> {
  const parser = Readable.from(textChunks(text), { objectMode: false }).pipe(Papa.parse(Papa.NODE_STREAM_INPUT, parseOptions(text)));
  let row = 0;
  for await (const cells of parser as AsyncIterable<string[]>) {
    row += 1;
    yield { row, cells };
  }
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
