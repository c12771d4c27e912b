import { generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { composeMime } from './compose-mime';

describe('composeMime', () => {
  const base = {
    messageId: '<e1@example.com>',
    from: { name: 'Acme Team', email: 'hello@example.com' },
    to: { name: null, email: 'ann@example.org' },
    subject: 'Grüße <b>',
    html: '<p>Hello <img src="cid:logo"></p>',
    text: 'Hello',
    headers: { 'Reply-To': 'help@example.com', 'X-Mailroom-Email-Id': 'e1', 'X-Custom': 'v' },
  };

  it('builds alternatives, inline and attached parts with our headers', async () => {
    const raw = await composeMime({
      ...base,
      attachments: [
        { filename: 'logo.png', content: Buffer.from('png-bytes'), contentType: 'image/png', contentId: 'logo', disposition: 'inline' },
        { filename: 'a.txt', content: Buffer.from('hello file'), contentType: 'text/plain', disposition: 'attachment' },
      ],
    });
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe('<e1@example.com>');
    expect(parsed.subject).toBe('Grüße <b>');
    expect(parsed.from?.value[0]).toEqual({ name: 'Acme Team', address: 'hello@example.com' });
    expect(parsed.replyTo?.text).toBe('help@example.com');
    expect(parsed.headers.get('x-mailroom-email-id')).toBe('e1');
    expect(parsed.headers.get('x-custom')).toBe('v');
    expect(parsed.text?.trim()).toBe('Hello');
    expect(parsed.html).toContain('Hello');
    const inline = parsed.attachments.find((a) => a.filename === 'logo.png')!;
    expect(inline.contentId).toBe('<logo>');
    expect(inline.contentDisposition).toBe('inline');
    const file = parsed.attachments.find((a) => a.filename === 'a.txt')!;
    expect(file.content.toString()).toBe('hello file');
    expect(file.contentDisposition).toBe('attachment');
    expect(raw.toString()).not.toMatch(/^Bcc:/im);
  });

  it('adds a DKIM signature when given a key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const raw = await composeMime({
      ...base,
      attachments: [],
      dkim: { domainName: 'example.com', keySelector: 'mr', privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() },
    });
    expect(raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example.com;\s+q=dns\/txt; s=mr;/m);
  });

  it('draws a fresh boundary per message, shared by all parts of one message', async () => {
    const attachments = [{ filename: 'a.txt', content: Buffer.from('x'), contentType: 'text/plain', disposition: 'attachment' as const }];
    const boundaries = async () => [...(await composeMime({ ...base, attachments })).toString().matchAll(/boundary="--_NmP-([0-9a-f]{16})-Part_\d+"/g)].map((m) => m[1]);
    const first = await boundaries();
    const second = await boundaries();
    expect(first).toHaveLength(2); // multipart/mixed around multipart/alternative
    expect(new Set(first).size).toBe(1);
    expect(second[0]).not.toBe(first[0]);
  });
});
