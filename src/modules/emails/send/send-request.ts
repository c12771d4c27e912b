import { isEmail, isUUID } from 'class-validator';
import { z } from 'zod';
import type { FieldError } from '../../../platform/http/app-error';
import { absent, coded, issue, openApiSchemaOf, parseDeclared } from '../../../platform/http/declared-body';
import type { StoredAttachment } from '../entities/email-content.entity';

/**
 * The `/v1/send` body is declared once (`SEND_BODY`, zod: `to` and `from` take several shapes,
 * which class-validator DTOs cannot express); the declaration gives the checks, the 422 items
 * (platform/http/declared-body.ts), the OpenAPI schema and the `SendRequest` type.
 */
export interface Recipient {
  email: string;
  name: string | null;
}

/** `type` of a send: how `body` is written (Plunk's field). */
export const BODY_TYPES = ['html', 'markdown'] as const;
export type BodyType = (typeof BODY_TYPES)[number];

type SendBody = z.output<typeof SEND_BODY>;
/** What the service reads of a send (the declaration's output; `type`, `name` and `reply` may be left out). */
export type SendRequest = Omit<SendBody, 'type' | 'name' | 'reply'> & Partial<Pick<SendBody, 'type' | 'name' | 'reply'>> & {
  /**
   * Set by the SMTP submission relay only (never parsed from a `/v1/send` body): the client's
   * message as written. `subject` and `body` (HTML, '' when the message has none) are final, not
   * Liquid; `text` is its plain-text part; `headers` may then hold the addressing headers the
   * client wrote (To, Cc, Message-ID, …), which the message builder keeps.
   */
  relay?: { text: string | null; source: 'smtp' };
};

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
/** An attachment's content id (what `cid:` names in the HTML): what /v1/send accepts, and what the SMTP relay keeps inline. */
export const CONTENT_ID = /^[^\s<>\u0000-\u001f\u007f]{1,200}$/;
const CONTENT_ID_MESSAGE = 'contentId must be 1 to 200 characters without spaces, angle brackets or control characters';

const validEmail = (v: string): boolean => v.length <= 320 && !CONTROL.test(v) && isEmail(v);
const string = (message = '{field} must be a string') => z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? '{field} is required' : message) });
const boolean = () => absent(z.boolean({ error: '{field} must be a boolean' }));
const email = (what: string) => ({ format: 'email', description: `${what} address` });

/** "Name <addr@x>" or a bare address. */
function splitAddress(raw: string): Recipient {
  const value = raw.trim();
  const angle = /^(.*)<([^<>]+)>$/.exec(value);
  if (!angle) return { email: value.toLowerCase(), name: null };
  const name = angle[1].trim().replace(/^"(.*)"$/, '$1').trim();
  return { email: angle[2].trim().toLowerCase(), name: name || null };
}

/** An address as a string (`from` also takes "Name <addr>") or `{ email, name }`. */
const address = (what: string, named: boolean, emptyIsMissing = false) =>
  z.union(
    [
      string()
        .meta({ ...email(what), example: 'ann@example.com' })
        .transform((value, ctx): Recipient => {
          const parsed = named ? splitAddress(value) : { email: value.trim().toLowerCase(), name: null };
          if (emptyIsMissing && value === '') issue(ctx, [], 'required', '{field} is required');
          else if (!validEmail(parsed.email) || LINE_BREAK.test(value)) issue(ctx, [], 'invalid_string', '{field} must be a valid email address', value);
          else if (parsed.name && parsed.name.length > SEND_LIMITS.displayName) {
            issue(ctx, [], 'too_big', `the display name in {field} must be at most ${SEND_LIMITS.displayName} characters`, value);
          }
          return parsed;
        }),
      z
        .object({
          email: z
            .string({ error: (iss) => (iss.input === undefined || iss.input === null ? coded('required', '{field} is required', true) : coded('invalid_string', '{field} must be a valid email address')) })
            .meta(email(what))
            .refine((v) => validEmail(v.trim()), { message: '{field} must be a valid email address', params: { code: 'invalid_string' } }),
          name: absent(
            string()
              .refine((v) => !CONTROL.test(v), { message: '{field} must not contain line breaks or control characters', params: { code: 'invalid_string' } })
              .max(SEND_LIMITS.displayName, { message: `{field} must be at most ${SEND_LIMITS.displayName} characters` })
              .meta({ description: 'Display name' }),
          ),
        })
        .transform(({ email: e, name }): Recipient => ({ email: e.trim().toLowerCase(), name: name?.trim() || null })),
    ],
    { error: coded('invalid_type', '{field} must be an email address or an object {name, email}') },
  );

/** A check that also runs beside problems of the members (their own items): it reads the raw list. */
const always = { when: ({ value }: { value: unknown }) => Array.isArray(value) };

const recipients = z
  .union([
    address('Recipient', false, true).transform((r) => [r]),
    z
      .array(address('Recipient', false))
      .refine((list) => list.length <= SEND_LIMITS.recipients, { ...always, message: `{field} may name at most ${SEND_LIMITS.recipients} recipients`, params: { code: 'too_big', alone: true } })
      .refine((list) => list.length > 0, { message: '{field} must name at least one recipient', params: { code: 'too_small' } })
      .meta({ maxItems: SEND_LIMITS.recipients })
      // The same address twice in one request is one recipient: one contact, one email.
      .transform((list) => list.filter((r, i) => list.findIndex((o) => o.email === r.email) === i)),
  ], { error: (iss) => (iss.input === undefined || iss.input === null ? coded('required', '{field} is required', true) : coded('invalid_type', '{field} must be an email address or an object {name, email}')) })
  .meta({
    description: `Recipient(s): an address, \`{ email, name }\`, or an array of up to ${SEND_LIMITS.recipients} of them. Each becomes (or updates) a contact; a recipient's \`name\` renders as \`{{name}}\` unless \`data\` sets \`name\`.`,
  });

function checkHeaders(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const entries = Object.entries(value);
  if (entries.length > SEND_LIMITS.headers) return issue(ctx, [], 'too_big', `at most ${SEND_LIMITS.headers} custom headers are allowed`, value);
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    const lower = name.toLowerCase();
    const fail = (code: string, message: string, received: unknown) => issue(ctx, [name], code, message, received);
    if (LINE_BREAK.test(name)) fail('invalid_string', 'header names must not contain CR or LF', name);
    else if (!HEADER_NAME.test(name)) fail('invalid_string', 'header names must be 1 to 100 printable ASCII characters without a colon or space', name);
    else if (RESERVED_HEADERS.has(lower)) fail('reserved_header', `the ${name} header is set by the service and cannot be overridden`, name);
    else if (seen.has(lower)) fail('duplicate', `the ${name} header is given twice (names are case-insensitive)`, name);
    else if (typeof raw !== 'string') fail('invalid_type', 'header values must be strings', raw);
    else if (LINE_BREAK.test(raw) || raw.includes(NUL)) fail('invalid_string', 'header values must not contain CR, LF or NUL', raw);
    else if (raw.length > SEND_LIMITS.headerValue) fail('too_big', `header values must be at most ${SEND_LIMITS.headerValue} characters`, raw);
    seen.add(lower);
  }
}

const headers = z
  .record(z.string(), z.unknown().transform((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)).meta({ type: 'string', maxLength: SEND_LIMITS.headerValue }), {
    error: '{field} must be an object of header name to value',
  })
  .superRefine(checkHeaders)
  .transform((v) => v as Record<string, string>)
  .meta({ maxProperties: SEND_LIMITS.headers, description: 'Extra message headers (From, To, Subject, Message-ID and MIME headers are reserved)' });

const decodedLength = (base64: string): number => (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

const attachment = z
  .object(
    {
      filename: z
        .string({ error: coded('required', '{field} is required') })
        .refine((v) => v.trim() !== '', { message: '{field} is required', params: { code: 'required' } })
        .refine((v) => !CONTROL.test(v) && v.length <= 255, { message: 'filename must be at most 255 characters without control characters (CR/LF)', params: { code: 'invalid_string' } })
        .meta({ maxLength: 255, description: 'File name shown to the recipient' }),
      content: z
        .string({ error: coded('required', '{field} (base64) is required') })
        .refine((v) => v.length > 0, { message: '{field} (base64) is required', params: { code: 'required' } })
        .transform((v) => v.replace(/\s+/g, ''))
        .refine((v) => v.length % 4 === 0 && BASE64.test(v), { message: '{field} is not valid base64', params: { code: 'invalid_base64' } })
        .meta({ format: 'byte', description: 'File content, base64' }),
      contentType: absent(
        z
          .string({ error: coded('invalid_string', 'contentType must be a MIME type such as application/pdf') })
          .refine((v) => CONTENT_TYPE.test(v), { message: 'contentType must be a MIME type such as application/pdf', params: { code: 'invalid_string' } })
          .meta({ description: 'MIME type, e.g. application/pdf (guessed from the filename when absent)' }),
      ),
      disposition: absent(z.enum(['attachment', 'inline'], { error: 'disposition must be attachment or inline' }).meta({ description: 'attachment (default) or inline (an image referenced from the body)' })),
      contentId: absent(
        z
          .string({ error: coded('invalid_string', CONTENT_ID_MESSAGE) })
          .refine((v) => CONTENT_ID.test(v), { message: CONTENT_ID_MESSAGE, params: { code: 'invalid_string' } })
          .meta({ description: 'For inline images: reference it in the body as cid:<contentId>' }),
      ),
    },
    { error: coded('invalid_type', '{field} must be an object {filename, content, contentType, contentId?, disposition}') },
  )
  // Also beside other problems of the attachment: the check reads the raw fields.
  .refine((a) => a.disposition !== 'inline' || (a.contentId !== undefined && a.contentId !== null), {
    path: ['contentId'],
    message: 'contentId is required for inline attachments (reference it as cid:<contentId>)',
    params: { code: 'required', received: undefined },
    when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value),
  })
  .transform(
    (a): StoredAttachment => ({ filename: a.filename.trim(), content: a.content, contentType: a.contentType ?? undefined, contentId: a.contentId ?? undefined, disposition: a.disposition ?? 'attachment' }),
  );

const base64Bytes = (a: unknown): number => {
  const content = typeof (a as { content?: unknown } | null)?.content === 'string' ? (a as { content: string }).content.replace(/\s+/g, '') : '';
  return content.length % 4 === 0 && BASE64.test(content) ? decodedLength(content) : 0;
};
const totalBytes = (list: unknown[]): number => list.reduce<number>((sum, a) => sum + base64Bytes(a), 0);
const MB = SEND_LIMITS.attachmentBytes / 1024 / 1024;

const attachments = z
  .array(attachment, { error: '{field} must be an array' })
  .refine((list) => list.length <= SEND_LIMITS.attachments, {
    ...always,
    error: (iss) => `at most ${SEND_LIMITS.attachments} attachments are allowed (got ${(iss.input as unknown[]).length})`,
    params: { code: 'too_big', alone: true },
  })
  .refine((list) => totalBytes(list) <= SEND_LIMITS.attachmentBytes, {
    ...always,
    error: (iss) => `attachments may total at most ${MB} MB decoded (got ${(totalBytes(iss.input as unknown[]) / 1024 / 1024).toFixed(1)} MB)`,
    params: { code: 'too_big', received: undefined },
  })
  .meta({ maxItems: SEND_LIMITS.attachments, description: `Files, at most ${MB} MB decoded in total` })
  .transform((list) => ({ attachments: list, bytes: list.reduce((sum, a) => sum + decodedLength(a.content), 0) }));

/** Null is "not given": the service reads undefined. */
function nullsAbsent<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v ?? undefined])) as { [K in keyof T]: Exclude<T[K], null> };
}

const textField = (check: (v: string, ctx: z.RefinementCtx) => void) => absent(string().superRefine(check));

/** The `/v1/send` body (docs/decisions.md#sending wire names): its validation, its OpenAPI schema and the type the service reads. */
export const SEND_BODY = z
  .object(
    {
      to: recipients,
      template: textField((v, ctx) => {
        if (!isUUID(v)) issue(ctx, [], 'invalid_string', 'template must be a template id (UUID)', v);
      }).meta({ format: 'uuid', description: 'Template id (UUID) to render; its subject, body and sender are used unless given here. The field is `template`, not `templateId`.' }),
      subject: textField((v, ctx) => {
        if (v.length === 0) issue(ctx, [], 'too_small', 'subject must not be empty', v);
        else if (v.length > SEND_LIMITS.subject) issue(ctx, [], 'too_big', `subject must be at most ${SEND_LIMITS.subject} characters`, v);
        else if (LINE_BREAK.test(v)) issue(ctx, [], 'invalid_string', 'subject must not contain line breaks (CR or LF)', v);
        else if (v.includes(NUL)) issue(ctx, [], 'invalid_string', 'subject must not contain NUL characters (U+0000)', v);
      }).meta({ maxLength: SEND_LIMITS.subject, description: 'Subject (Liquid template); required without `template`' }),
      body: textField((v, ctx) => {
        if (v.length === 0) issue(ctx, [], 'too_small', 'body must not be empty', v);
        else if (v.includes(NUL)) issue(ctx, [], 'invalid_string', 'body must not contain NUL characters (U+0000)', v);
      }).meta({ description: 'Body (Liquid template), HTML or markdown as `type` says; required without `template`' }),
      type: textField((v, ctx) => {
        if (!(BODY_TYPES as readonly string[]).includes(v)) issue(ctx, [], 'invalid_enum_value', `type must be ${BODY_TYPES.join(' or ')} (how body is written)`, v);
      }).meta({
        enum: [...BODY_TYPES],
        default: 'html',
        description: "How this request's `body` is written: html (default, sent as given) or markdown (rendered with Liquid, then converted to HTML); a template's body is HTML. Plunk's field",
      }),
      from: absent(address('Sender', true)).meta({ description: "Sender: an address on a verified domain, or `{ email, name }`; defaults to the template's sender, then to the project's `defaultFrom`" }),
      name: textField((v, ctx) => {
        if (CONTROL.test(v) || v.length > SEND_LIMITS.displayName) issue(ctx, [], 'invalid_string', `name must be at most ${SEND_LIMITS.displayName} characters without control characters`, v);
      }).meta({ maxLength: SEND_LIMITS.displayName, description: 'Deprecated: sender display name, used when `from` has no name' }),
      reply: textField((v, ctx) => {
        if (!validEmail(v.trim())) issue(ctx, [], 'invalid_string', 'reply must be a valid email address', v);
      }).meta({ format: 'email', description: 'Reply-To address' }),
      data: absent(z.record(z.string(), z.unknown(), { error: 'data must be an object' })).meta({
        additionalProperties: true,
        description: 'Template variables, stored on the contact; `{ "value": …, "persistent": false }` uses a value for this email only',
      }),
      subscribed: boolean().meta({ description: 'Sets the subscription of the recipients (contacts)' }),
      preserveExistingSubscription: boolean().meta({ description: "Plunk's flag: with true, `subscribed` applies to recipients that become new contacts only; existing contacts keep their state" }),
      doubleOptIn: boolean().meta({
        description: "With the project's double opt-in enabled, recipients that subscribed: true would subscribe stay unsubscribed (confirmation pending) and get the confirmation email",
      }),
      topics: absent(z.record(z.string(), z.unknown(), { error: 'topics must be an object of topic slugs to true, false or null' })).meta({
        additionalProperties: { type: 'boolean', nullable: true },
        description: 'Topic choices of the recipients (contacts) by topic slug: true, false, or null to remove the choice; an unknown slug is a 422',
      }),
      headers: absent(headers),
      attachments: absent(attachments),
      tracking: boolean().meta({ description: "Open and click tracking for this email (defaults to the project's setting)" }),
    },
    { error: coded('invalid_type', 'the request body must be a JSON object') },
  )
  .meta({ description: 'Either `template` (a template id) or `subject` and `body`. Unknown fields are refused when they look like a misspelling (e.g. `templateId`).' })
  .transform(({ to, type, name, reply, headers: h, attachments: a, ...rest }) => ({
    ...nullsAbsent(rest),
    to,
    /** `markdown`: `body` is converted to HTML when each message is built; absent means `html`. */
    type: (type ?? undefined) as BodyType | undefined,
    name: name?.trim() || undefined,
    reply: reply?.trim().toLowerCase(),
    headers: h ?? {},
    attachments: a?.attachments ?? [],
    /** Decoded size of all attachments, in bytes. */
    attachmentBytes: a?.bytes ?? 0,
  }));

export const SEND_REQUEST_SCHEMA = openApiSchemaOf(SEND_BODY);

export const SEND_BODY_OPTIONS = { nearMisses: SEND_NEAR_MISSES };

/** Returns the normalized request, or every problem found (one item each; misspelt field names too). */
export function parseSendRequest(input: unknown): { request: SendRequest; errors: [] } | { request: null; errors: FieldError[] } {
  const parsed = parseDeclared(SEND_BODY, input, SEND_BODY_OPTIONS);
  return parsed.value === null ? { request: null, errors: parsed.errors } : { request: parsed.value, errors: [] };
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
