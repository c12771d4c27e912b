import type { ParsedMail } from 'mailparser';
import { CONTENT_ID, type SendRequest } from '../../emails';

/** Headers the relay keeps as the client wrote them, beside the custom ones (the message builder places To and Message-ID). */
const ADDRESSING = new Set(['to', 'cc', 'reply-to', 'in-reply-to', 'references', 'message-id']);

/**
 * Headers never copied: Bcc (never in a copy), what the service sets itself (From, Subject, Date,
 * the MIME structure, our DKIM signature and email id, List-Unsubscribe as `/v1/send` sets it for
 * the email's type), and trace headers of the client's hop. Resent-* fields (dropped by prefix)
 * would name a sender we never verified.
 */
const DROPPED = new Set([
  'bcc',
  'from',
  'sender',
  'subject',
  'date',
  'mime-version',
  'dkim-signature',
  'return-path',
  'received',
  'x-mailroom-email-id',
  'authentication-results',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'delivered-to',
  'x-original-to',
  'list-unsubscribe',
  'list-unsubscribe-post',
]);

/** U+0000 cannot be stored in PostgreSQL text nor sent; other control characters are left to the composer. */
const clean = (value: string): string => value.replace(/\u0000/g, '');

/** The From address of a parsed message, lowercased, or undefined when it has none. */
export function fromOf(parsed: ParsedMail): { email: string; name: string | null } | undefined {
  const first = parsed.from?.value.find((a) => a.address);
  if (!first?.address) return undefined;
  return { email: first.address.trim().toLowerCase(), name: clean(first.name ?? '').trim() || null };
}

/** The headers the copies carry: addressing headers and custom ones, first occurrence of each name, unfolded. */
export function keptHeaders(parsed: ParsedMail): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { key, line } of parsed.headerLines) {
    if (DROPPED.has(key) || key.startsWith('content-') || key.startsWith('resent-') || seen.has(key)) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (!/^[\x21-\x39\x3b-\x7e]{1,100}$/.test(name)) continue;
    const value = clean(line.slice(colon + 1)).replace(/\r?\n[ \t]*/g, ' ').trim();
    if (!value && !ADDRESSING.has(key)) continue;
    seen.add(key);
    headers[name] = value;
  }
  return headers;
}

/**
 * A submitted message as the `/v1/send` request that sends it to each envelope recipient: the
 * same `SendRequest`, with `relay` saying its content is final (not Liquid) and carrying its
 * plain-text part. Malformed MIME is taken as mailparser understood it.
 */
export function messageToSendRequest(parsed: ParsedMail, from: { email: string; name: string | null }, recipients: string[]): SendRequest {
  const attachments = parsed.attachments.map((a) => {
    const cid = a.cid?.replace(/^<|>$/g, '');
    const inline = a.contentDisposition === 'inline' && cid !== undefined && CONTENT_ID.test(cid);
    return {
      filename: clean(a.filename ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 255) || (a.contentType === 'message/rfc822' ? 'message.eml' : 'attachment'),
      content: a.content.toString('base64'),
      contentType: a.contentType || undefined,
      contentId: inline ? cid : undefined,
      disposition: inline ? ('inline' as const) : ('attachment' as const),
    };
  });
  return {
    to: recipients.map((email) => ({ email, name: null })),
    subject: clean(parsed.subject ?? '').replace(/[\r\n]+/g, ' '),
    body: typeof parsed.html === 'string' ? clean(parsed.html) : '',
    from,
    headers: keptHeaders(parsed),
    attachments,
    attachmentBytes: parsed.attachments.reduce((sum, a) => sum + a.content.length, 0),
    relay: { text: typeof parsed.text === 'string' ? clean(parsed.text) : null, source: 'smtp' },
  };
}
