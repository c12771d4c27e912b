import { field, HeaderBlock, parseHeaderBlocks } from './header-blocks';

/** The machine-readable parts of the reports we act on: a DSN (RFC 3464) and an ARF report (RFC 5965). */
export type ReportKind = 'delivery-status' | 'feedback-report';

const KINDS: Record<string, ReportKind> = { 'message/delivery-status': 'delivery-status', 'message/feedback-report': 'feedback-report' };
const MAX_DEPTH = 4;

interface Entity {
  headers: HeaderBlock;
  body: string;
}

/**
 * The first `message/delivery-status` or `message/feedback-report` part of a message, decoded to
 * text. mailparser folds such parts into the message's text, so the raw MIME tree is walked here:
 * only multipart containers are entered, a few levels deep at most. Null when there is none.
 */
export function findReportPart(raw: Buffer | string): { kind: ReportKind; text: string } | null {
  return walk(entity(typeof raw === 'string' ? raw : raw.toString('utf8')), 0);
}

function walk(part: Entity, depth: number): { kind: ReportKind; text: string } | null {
  const { type, params } = contentType(field(part.headers, 'content-type'));
  const kind = KINDS[type];
  if (kind) return { kind, text: decode(part.body, field(part.headers, 'content-transfer-encoding')) };
  if (!type.startsWith('multipart/') || !params.boundary || depth >= MAX_DEPTH) return null;
  for (const child of splitMultipart(part.body, params.boundary)) {
    const found = walk(entity(child), depth + 1);
    if (found) return found;
  }
  return null;
}

function entity(text: string): Entity {
  const normalized = text.replace(/\r\n?/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end >= 0 ? normalized.slice(0, end) : normalized;
  return { headers: parseHeaderBlocks(head)[0] ?? new Map(), body: end >= 0 ? normalized.slice(end + 2) : '' };
}

/** `multipart/report; report-type=delivery-status; boundary="x"` → type and lower-cased parameter names. */
export function contentType(value: string | null): { type: string; params: Record<string, string> } {
  const [type, ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq <= 0) continue;
    params[param.slice(0, eq).trim().toLowerCase()] = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\n'));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\n'));
  return parts;
}

function decode(body: string, encoding: string | null): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}
