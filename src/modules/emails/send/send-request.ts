import { isEmail, isUUID } from 'class-validator';
import type { FieldError } from '../../../platform/http/app-error';
import type { SchemaObject } from '../../../platform/http/openapi-responses';
import { nearMissErrors } from '../../../platform/http/validation';
import type { StoredAttachment } from '../entities/email-content.entity';

/**
 * The `/v1/send` body (docs/decisions.md#sending wire names), checked field by field so that
 * every problem becomes its own 422 item and nothing is written for a rejected request.
 * `to` and `from` take several shapes, which class-validator DTOs cannot express.
 */
export interface Recipient {
  email: string;
  name: string | null;
}

/** `type` of a send: how `body` is written (Plunk's field). */
export const BODY_TYPES = ['html', 'markdown'] as const;
export type BodyType = (typeof BODY_TYPES)[number];

export interface SendRequest {
  to: Recipient[];
  subject?: string;
  body?: string;
  /** `markdown`: `body` is converted to HTML when each message is built; absent means `html`. */
  type?: BodyType;
  template?: string;
  from?: Recipient;
  /** Deprecated sender display name: used only when `from` carries no name. */
  name?: string;
  reply?: string;
  data?: Record<string, unknown>;
  subscribed?: boolean;
  /** Plunk's flag: `subscribed` applies to a recipient that becomes a new contact only. */
  preserveExistingSubscription?: boolean;
  /** Double opt-in for recipients this send would subscribe (with the project's double opt-in enabled). */
  doubleOptIn?: boolean;
  /** Topic choices of the recipients (contacts), patched like `data`; slugs are checked with the contacts' write. */
  topics?: Record<string, unknown>;
  headers: Record<string, string>;
  attachments: StoredAttachment[];
  /** Decoded size of all attachments, in bytes. */
  attachmentBytes: number;
  tracking?: boolean;
  /**
   * Set by the SMTP submission relay only (never parsed from a `/v1/send` body): the client's
   * message as written. `subject` and `body` (HTML, '' when the message has none) are final, not
   * Liquid; `text` is its plain-text part; `headers` may then hold the addressing headers the
   * client wrote (To, Cc, Message-ID, …), which the message builder keeps.
   */
  relay?: { text: string | null; source: 'smtp' };
}

export const SEND_LIMITS = {
  recipients: 50,
  subject: 998,
  headerValue: 998,
  headers: 50,
  attachments: 10,
  attachmentBytes: 10 * 1024 * 1024,
  messageBytes: 40 * 1024 * 1024,
  displayName: 200,
} as const;

const address = (what: string): SchemaObject => ({
  oneOf: [
    { type: 'string', format: 'email', description: `${what} address`, example: 'ann@example.com' },
    {
      type: 'object',
      required: ['email'],
      properties: { email: { type: 'string', format: 'email', description: `${what} address` }, name: { type: 'string', maxLength: SEND_LIMITS.displayName, description: 'Display name' } },
    },
  ],
});

/**
 * The `/v1/send` body as the OpenAPI document shows it, written beside the parser below and from
 * its limits and enums. Its properties are exactly the fields `parseSendRequest` reads, and each
 * is checked there (send-request.spec.ts holds the two to the same list).
 */
export const SEND_REQUEST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['to'],
  description: 'Either `template` (a template id) or `subject` and `body`. Unknown fields are refused when they look like a misspelling (e.g. `templateId`).',
  properties: {
    to: {
      description: `Recipient(s): an address, \`{ email, name }\`, or an array of up to ${SEND_LIMITS.recipients} of them. Each becomes (or updates) a contact; a recipient's \`name\` renders as \`{{name}}\` unless \`data\` sets \`name\`.`,
      oneOf: [address('Recipient'), { type: 'array', maxItems: SEND_LIMITS.recipients, items: address('Recipient') }],
    },
    template: { type: 'string', format: 'uuid', description: 'Template id (UUID) to render; its subject, body and sender are used unless given here. The field is `template`, not `templateId`.' },
    subject: { type: 'string', maxLength: SEND_LIMITS.subject, description: 'Subject (Liquid template); required without `template`' },
    body: { type: 'string', description: 'Body (Liquid template), HTML or markdown as `type` says; required without `template`' },
    type: {
      type: 'string',
      enum: [...BODY_TYPES],
      default: 'html',
      description: "How this request's `body` is written: html (default, sent as given) or markdown (rendered with Liquid, then converted to HTML); a template's body is HTML. Plunk's field",
    },
    from: {
      ...address('Sender'),
      description: "Sender: an address on a verified domain, or `{ email, name }`; defaults to the template's sender, then to the project's `defaultFrom`",
    },
    name: { type: 'string', maxLength: SEND_LIMITS.displayName, description: 'Deprecated: sender display name, used when `from` has no name' },
    reply: { type: 'string', format: 'email', description: 'Reply-To address' },
    data: {
      type: 'object',
      additionalProperties: true,
      description: 'Template variables, stored on the contact; `{ "value": …, "persistent": false }` uses a value for this email only',
    },
    subscribed: { type: 'boolean', description: 'Sets the subscription of the recipients (contacts)' },
    preserveExistingSubscription: { type: 'boolean', description: "Plunk's flag: with true, `subscribed` applies to recipients that become new contacts only; existing contacts keep their state" },
    doubleOptIn: {
      type: 'boolean',
      description: "With the project's double opt-in enabled, recipients that subscribed: true would subscribe stay unsubscribed (confirmation pending) and get the confirmation email",
    },
    topics: {
      type: 'object',
      additionalProperties: { type: 'boolean', nullable: true },
      description: 'Topic choices of the recipients (contacts) by topic slug: true, false, or null to remove the choice; an unknown slug is a 422',
    },
    headers: {
      type: 'object',
      maxProperties: SEND_LIMITS.headers,
      additionalProperties: { type: 'string', maxLength: SEND_LIMITS.headerValue },
      description: 'Extra message headers (From, To, Subject, Message-ID and MIME headers are reserved)',
    },
    attachments: {
      type: 'array',
      maxItems: SEND_LIMITS.attachments,
      description: `Files, at most ${SEND_LIMITS.attachmentBytes / 1024 / 1024} MB decoded in total`,
      items: {
        type: 'object',
        required: ['filename', 'content'],
        properties: {
          filename: { type: 'string', maxLength: 255, description: 'File name shown to the recipient' },
          content: { type: 'string', format: 'byte', description: 'File content, base64' },
          contentType: { type: 'string', description: 'MIME type, e.g. application/pdf (guessed from the filename when absent)' },
          disposition: { type: 'string', enum: ['attachment', 'inline'], description: 'attachment (default) or inline (an image referenced from the body)' },
          contentId: { type: 'string', description: 'For inline images: reference it in the body as cid:<contentId>' },
        },
      },
    },
    tracking: { type: 'boolean', description: "Open and click tracking for this email (defaults to the project's setting)" },
  },
};

/**
 * Headers the service owns: they carry the addressing it verified (From, To, ...), the MIME
 * structure, or the id that ties bounces back to the email. Every other header, including
 * Reply-To and List-Unsubscribe, may be overridden by the caller.
 */
export const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'dkim-signature',
  'return-path',
  'x-mailroom-email-id',
]);

/** Field names callers of other email APIs reach for; a 422 names the right one instead of ignoring them. */
const SEND_NEAR_MISSES: Record<string, string> = {
  templateId: 'template (the template id)',
  template_id: 'template (the template id)',
  templateID: 'template (the template id)',
  html: 'body (the HTML body)',
  replyTo: 'reply',
  reply_to: 'reply',
  variables: 'data',
  attachment: 'attachments',
  header: 'headers',
};

const LINE_BREAK = /[\r\n]/;
/** U+0000 cannot be stored in a PostgreSQL text or jsonb value, nor sent in a message. */
const NUL = '\u0000';
const CONTROL = /[\u0000-\u001f\u007f]/;
/** RFC 5322 field name: printable US-ASCII except the colon. */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]{1,100}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const CONTENT_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w.-]+=("[^"\r\n]*"|[^;\s"]+))*$/;
const CONTENT_ID = /^[^\s<>\u0000-\u001f\u007f]{1,200}$/;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

class Problems {
  readonly items: FieldError[] = [];
  add(field: string, code: string, message: string, received?: unknown): void {
    this.items.push({ field, code, message, received: summarize(received) });
  }
}

function summarize(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  return Array.isArray(value) ? 'array' : 'object';
}

const validEmail = (v: string): boolean => v.length <= 320 && !CONTROL.test(v) && isEmail(v);

/** "Name <addr@x>" or a bare address. */
function splitAddress(raw: string): Recipient | null {
  const value = raw.trim();
  const angle = /^(.*)<([^<>]+)>$/.exec(value);
  if (angle) {
    const name = angle[1].trim().replace(/^"(.*)"$/, '$1').trim();
    return { email: angle[2].trim().toLowerCase(), name: name || null };
  }
  return { email: value.toLowerCase(), name: null };
}

function parseAddress(value: unknown, field: string, p: Problems, allowNamedString: boolean): Recipient | undefined {
  if (typeof value === 'string') {
    const parsed = allowNamedString ? splitAddress(value) : { email: value.trim().toLowerCase(), name: null };
    if (!parsed || !validEmail(parsed.email) || LINE_BREAK.test(value)) {
      p.add(field, 'invalid_string', `${field} must be a valid email address`, value);
      return undefined;
    }
    if (parsed.name && parsed.name.length > SEND_LIMITS.displayName) {
      p.add(field, 'too_big', `the display name in ${field} must be at most ${SEND_LIMITS.displayName} characters`, value);
      return undefined;
    }
    return parsed;
  }
  if (isObject(value)) {
    let ok = true;
    const email = value.email;
    if (email === undefined || email === null) {
      p.add(`${field}.email`, 'required', `${field}.email is required`);
      ok = false;
    } else if (typeof email !== 'string' || !validEmail(email.trim())) {
      p.add(`${field}.email`, 'invalid_string', `${field}.email must be a valid email address`, email);
      ok = false;
    }
    const name = value.name;
    if (name !== undefined && name !== null) {
      if (typeof name !== 'string') {
        p.add(`${field}.name`, 'invalid_type', `${field}.name must be a string`, name);
        ok = false;
      } else if (CONTROL.test(name)) {
        p.add(`${field}.name`, 'invalid_string', `${field}.name must not contain line breaks or control characters`, name);
        ok = false;
      } else if (name.length > SEND_LIMITS.displayName) {
        p.add(`${field}.name`, 'too_big', `${field}.name must be at most ${SEND_LIMITS.displayName} characters`, name);
        ok = false;
      }
    }
    if (!ok) return undefined;
    const trimmedName = typeof name === 'string' ? name.trim() : '';
    return { email: (email as string).trim().toLowerCase(), name: trimmedName || null };
  }
  p.add(field, 'invalid_type', `${field} must be an email address or an object {name, email}`, value);
  return undefined;
}

function parseRecipients(value: unknown, p: Problems): Recipient[] {
  if (value === undefined || value === null || value === '') {
    p.add('to', 'required', 'to is required');
    return [];
  }
  if (!Array.isArray(value)) {
    const one = parseAddress(value, 'to', p, false);
    return one ? [one] : [];
  }
  if (value.length === 0) {
    p.add('to', 'too_small', 'to must name at least one recipient', value);
    return [];
  }
  if (value.length > SEND_LIMITS.recipients) {
    p.add('to', 'too_big', `to may name at most ${SEND_LIMITS.recipients} recipients`, value);
    return [];
  }
  const seen = new Set<string>();
  const out: Recipient[] = [];
  value.forEach((item, i) => {
    const r = parseAddress(item, `to[${i}]`, p, false);
    // The same address twice in one request is one recipient: one contact, one email.
    if (r && !seen.has(r.email)) {
      seen.add(r.email);
      out.push(r);
    }
  });
  return out;
}

function optionalString(body: Obj, field: string, p: Problems): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    p.add(field, 'invalid_type', `${field} must be a string`, value);
    return undefined;
  }
  return value;
}

function optionalBoolean(body: Obj, field: string, p: Problems): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    p.add(field, 'invalid_type', `${field} must be a boolean`, value);
    return undefined;
  }
  return value;
}

function parseHeaders(value: unknown, p: Problems): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    p.add('headers', 'invalid_type', 'headers must be an object of header name to value', value);
    return {};
  }
  const entries = Object.entries(value);
  if (entries.length > SEND_LIMITS.headers) {
    p.add('headers', 'too_big', `at most ${SEND_LIMITS.headers} custom headers are allowed`, value);
    return {};
  }
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    const field = `headers.${name.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}`;
    if (LINE_BREAK.test(name)) {
      p.add(field, 'invalid_string', 'header names must not contain CR or LF', name);
      continue;
    }
    if (!HEADER_NAME.test(name)) {
      p.add(field, 'invalid_string', 'header names must be 1 to 100 printable ASCII characters without a colon or space', name);
      continue;
    }
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      p.add(field, 'reserved_header', `the ${name} header is set by the service and cannot be overridden`, name);
      continue;
    }
    if (seen.has(lower)) {
      p.add(field, 'duplicate', `the ${name} header is given twice (names are case-insensitive)`, name);
      continue;
    }
    seen.add(lower);
    const headerValue = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    if (typeof headerValue !== 'string') {
      p.add(field, 'invalid_type', 'header values must be strings', raw);
      continue;
    }
    if (LINE_BREAK.test(headerValue) || headerValue.includes(NUL)) {
      p.add(field, 'invalid_string', 'header values must not contain CR, LF or NUL', headerValue);
      continue;
    }
    if (headerValue.length > SEND_LIMITS.headerValue) {
      p.add(field, 'too_big', `header values must be at most ${SEND_LIMITS.headerValue} characters`, headerValue);
      continue;
    }
    out[name] = headerValue;
  }
  return out;
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

function parseAttachments(value: unknown, p: Problems): { attachments: StoredAttachment[]; bytes: number } {
  const none = { attachments: [], bytes: 0 };
  if (value === undefined || value === null) return none;
  if (!Array.isArray(value)) {
    p.add('attachments', 'invalid_type', 'attachments must be an array', value);
    return none;
  }
  if (value.length > SEND_LIMITS.attachments) {
    p.add('attachments', 'too_big', `at most ${SEND_LIMITS.attachments} attachments are allowed (got ${value.length})`, value);
    return none;
  }
  const attachments: StoredAttachment[] = [];
  let bytes = 0;
  value.forEach((item, i) => {
    const f = `attachments[${i}]`;
    if (!isObject(item)) {
      p.add(f, 'invalid_type', `${f} must be an object {filename, content, contentType, contentId?, disposition}`, item);
      return;
    }
    const before = p.items.length;
    const { filename, content, contentType, contentId } = item;
    const disposition = item.disposition ?? 'attachment';
    if (typeof filename !== 'string' || filename.trim() === '') p.add(`${f}.filename`, 'required', `${f}.filename is required`, filename);
    else if (CONTROL.test(filename) || filename.length > 255) {
      p.add(`${f}.filename`, 'invalid_string', 'filename must be at most 255 characters without control characters (CR/LF)', filename);
    }
    let normalized = '';
    if (typeof content !== 'string' || content.length === 0) p.add(`${f}.content`, 'required', `${f}.content (base64) is required`, content);
    else {
      normalized = content.replace(/\s+/g, '');
      if (normalized.length % 4 !== 0 || !BASE64.test(normalized)) {
        p.add(`${f}.content`, 'invalid_base64', `${f}.content is not valid base64`, content);
      }
    }
    if (contentType !== undefined && contentType !== null && (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType))) {
      p.add(`${f}.contentType`, 'invalid_string', 'contentType must be a MIME type such as application/pdf', contentType);
    }
    if (disposition !== 'attachment' && disposition !== 'inline') {
      p.add(`${f}.disposition`, 'invalid_enum_value', 'disposition must be attachment or inline', disposition);
    }
    if (contentId !== undefined && contentId !== null && (typeof contentId !== 'string' || !CONTENT_ID.test(contentId))) {
      p.add(`${f}.contentId`, 'invalid_string', 'contentId must be 1 to 200 characters without spaces, angle brackets or control characters', contentId);
    } else if (disposition === 'inline' && (contentId === undefined || contentId === null)) {
      p.add(`${f}.contentId`, 'required', 'contentId is required for inline attachments (reference it as cid:<contentId>)');
    }
    if (p.items.length > before) return;
    bytes += decodedLength(normalized);
    attachments.push({
      filename: (filename as string).trim(),
      content: normalized,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      contentId: typeof contentId === 'string' ? contentId : undefined,
      disposition: disposition as 'attachment' | 'inline',
    });
  });
  if (bytes > SEND_LIMITS.attachmentBytes) {
    p.add('attachments', 'too_big', `attachments may total at most ${SEND_LIMITS.attachmentBytes / 1024 / 1024} MB decoded (got ${(bytes / 1024 / 1024).toFixed(1)} MB)`);
  }
  return { attachments, bytes };
}

/** Returns the normalized request, or every problem found (one item each). */
export function parseSendRequest(input: unknown): { request: SendRequest; errors: [] } | { request: null; errors: FieldError[] } {
  const p = new Problems();
  if (!isObject(input)) {
    p.add('body', 'invalid_type', 'the request body must be a JSON object', input);
    return { request: null, errors: p.items };
  }
  const to = parseRecipients(input.to, p);

  const subject = optionalString(input, 'subject', p);
  if (subject !== undefined) {
    if (subject.length === 0) p.add('subject', 'too_small', 'subject must not be empty', subject);
    else if (subject.length > SEND_LIMITS.subject) p.add('subject', 'too_big', `subject must be at most ${SEND_LIMITS.subject} characters`, subject);
    else if (LINE_BREAK.test(subject)) p.add('subject', 'invalid_string', 'subject must not contain line breaks (CR or LF)', subject);
    else if (subject.includes(NUL)) p.add('subject', 'invalid_string', 'subject must not contain NUL characters (U+0000)', subject);
  }
  const body = optionalString(input, 'body', p);
  if (body !== undefined && body.length === 0) p.add('body', 'too_small', 'body must not be empty', body);
  else if (body?.includes(NUL)) p.add('body', 'invalid_string', 'body must not contain NUL characters (U+0000)', body);
  const type = optionalString(input, 'type', p);
  if (type !== undefined && !(BODY_TYPES as readonly string[]).includes(type)) {
    p.add('type', 'invalid_enum_value', `type must be ${BODY_TYPES.join(' or ')} (how body is written)`, type);
  }

  for (const item of nearMissErrors(input, SEND_NEAR_MISSES)) p.items.push(item);
  const template = optionalString(input, 'template', p);
  if (template !== undefined && !isUUID(template)) p.add('template', 'invalid_string', 'template must be a template id (UUID)', template);

  const from = input.from === undefined || input.from === null ? undefined : parseAddress(input.from, 'from', p, true);
  const name = optionalString(input, 'name', p);
  if (name !== undefined && (CONTROL.test(name) || name.length > SEND_LIMITS.displayName)) {
    p.add('name', 'invalid_string', `name must be at most ${SEND_LIMITS.displayName} characters without control characters`, name);
  }
  const reply = optionalString(input, 'reply', p);
  if (reply !== undefined && !validEmail(reply.trim())) p.add('reply', 'invalid_string', 'reply must be a valid email address', reply);

  let data: Record<string, unknown> | undefined;
  if (input.data !== undefined && input.data !== null) {
    if (isObject(input.data)) data = input.data;
    else p.add('data', 'invalid_type', 'data must be an object', input.data);
  }
  const subscribed = optionalBoolean(input, 'subscribed', p);
  const preserveExistingSubscription = optionalBoolean(input, 'preserveExistingSubscription', p);
  const doubleOptIn = optionalBoolean(input, 'doubleOptIn', p);
  let topics: Record<string, unknown> | undefined;
  if (input.topics !== undefined && input.topics !== null) {
    if (isObject(input.topics)) topics = input.topics;
    else p.add('topics', 'invalid_type', 'topics must be an object of topic slugs to true, false or null', input.topics);
  }
  const tracking = optionalBoolean(input, 'tracking', p);
  const headers = parseHeaders(input.headers, p);
  const { attachments, bytes } = parseAttachments(input.attachments, p);

  if (p.items.length) return { request: null, errors: p.items };
  return {
    request: {
      to,
      subject,
      body,
      type: type as BodyType | undefined,
      template,
      from,
      name: name?.trim() || undefined,
      reply: reply?.trim().toLowerCase(),
      data,
      subscribed,
      preserveExistingSubscription,
      doubleOptIn,
      topics,
      headers,
      attachments,
      attachmentBytes: bytes,
      tracking,
    },
    errors: [],
  };
}

/**
 * A recipient's template variables: its `name` (`to: {name, email}`) is `{{name}}` for this
 * email, as Plunk's "Hello {{name}}!" example expects, over a name stored on the contact; a
 * `name` in the request's `data` (stored or one-off) wins. The name itself is not stored.
 */
export function recipientVariables(req: SendRequest, to: Recipient, variables: Record<string, unknown>): Record<string, unknown> {
  const dataName = req.data?.name;
  if (!to.name || (dataName !== undefined && dataName !== null)) return variables;
  return { ...variables, name: to.name };
}
