import { randomUUID } from 'node:crypto';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';

export interface Address {
  name?: string | null;
  email: string;
}

export interface MimeAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
  contentId?: string;
  disposition: 'attachment' | 'inline';
}

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export interface ComposeInput {
  messageId: string;
  from: Address;
  /** The envelope recipient, shown in To unless `toHeader` is given. */
  to: Address;
  /** The To header as a client wrote it (the SMTP relay: every addressee of the message). */
  toHeader?: string;
  subject: string;
  html: string;
  text: string;
  /** Final header set: defaults already overridden by the caller's custom headers (case-insensitively). */
  headers: Record<string, string>;
  attachments: MimeAttachment[];
  dkim?: DkimKey | null;
}

const addr = (a: Address) => (a.name ? { name: a.name, address: a.email } : a.email);

/**
 * Builds the RFC 5322 message with nodemailer's composer (multipart/alternative text + HTML,
 * inline parts with a Content-ID in multipart/related, the rest in multipart/mixed) and signs it
 * with DKIM when a key is given. File and URL access are off: content only comes from us.
 */
export async function composeMime(input: ComposeInput): Promise<Buffer> {
  const node = new MailComposer({
    from: addr(input.from),
    to: input.toHeader ?? addr(input.to),
    subject: input.subject,
    messageId: input.messageId,
    html: input.html,
    text: input.text,
    headers: input.headers,
    attachments: input.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      cid: a.disposition === 'inline' ? a.contentId : undefined,
      contentDisposition: a.disposition,
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
    newline: 'windows',
    // One random boundary base for the whole tree, from Node's buffered UUID pool: otherwise every
    // MIME node draws its own with a synchronous randomBytes call (a measurable share of composing).
    baseBoundary: randomUUID().replace(/-/g, '').slice(0, 16),
  }).compile();
  // The envelope comes from the transport's caller; MailComposer must not add Bcc handling.
  node.keepBcc = false;
  const raw = await node.build();
  if (!input.dkim) return raw;
  return streamToBuffer(new DKIM({ ...input.dkim }).sign(raw));
}

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** The domain part of an address, lowercased. */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
