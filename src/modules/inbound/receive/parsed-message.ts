import { AddressObject, simpleParser } from 'mailparser';

/** What the `email.received` event and the record keep of a message's content. */
export interface ParsedInbound {
  from: string | null;
  to: string[];
  cc: string[];
  subject: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  /** The text body, its first 64 KB. */
  text: string | null;
  attachments: Array<{ filename: string | null; contentType: string; size: number }>;
}

export const TEXT_LIMIT = 64 * 1024;

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((o) => flatten(o.value)).map((a) => a.toLowerCase());

function flatten(list: AddressObject['value']): string[] {
  return list.flatMap((a) => (a.group ? flatten(a.group) : a.address ? [a.address] : []));
}

/** Cuts at a character boundary at or below `limit` UTF-8 bytes. */
export function truncateUtf8(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  return bytes.subarray(0, limit).toString('utf8').replace(/\uFFFD$/, '');
}

/** mailparser's reading of the message; a message it cannot read at all gives empty fields (its raw bytes are kept anyway). */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  try {
    const mail = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true, skipImageLinks: true });
    return {
      from: addresses(mail.from)[0] ?? null,
      to: addresses(mail.to),
      cc: addresses(mail.cc),
      subject: mail.subject ?? null,
      messageId: mail.messageId ?? null,
      inReplyTo: mail.inReplyTo ?? null,
      text: mail.text ? truncateUtf8(mail.text, TEXT_LIMIT) : null,
      attachments: mail.attachments.map((a) => ({ filename: a.filename ?? null, contentType: a.contentType, size: a.size })),
    };
  } catch {
    return { from: null, to: [], cc: [], subject: null, messageId: null, inReplyTo: null, text: null, attachments: [] };
  }
}
