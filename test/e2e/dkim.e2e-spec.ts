import { dkimVerify } from 'mailauth/lib/dkim/verify';
import nodemailer from 'nodemailer';
import { DomainsService } from '../../src/modules/domains/domains.service';
import { addVerifiedDomain } from '../support/dns-server';
import { useSmtpDnsSession } from '../support/mail-stack';

interface RecordBody {
  type: string;
  name: string;
  value: string;
  required: boolean;
  purpose: string;
}

/**
 * White-box: the first test signs with `DomainsService.dkimKeyFor` directly, to prove the key the
 * service signs with is the one published in DNS (no endpoint returns the private key).
 */
describe('DKIM signing', () => {
  const { dns, smtp, s } = useSmtpDnsSession();

  it('signs with the key published in DNS: mailauth verifies the signature through the test zone', async () => {
    const records = (await addVerifiedDomain(s.api, dns, 'signed.example.com')).records as RecordBody[];

    const key = await s.app.runtime.app.get(DomainsService).dkimKeyFor(s.project.id, 'news@mail.signed.example.com');
    expect(key).not.toBeNull();
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    const info = await transport.sendMail({
      from: 'news@mail.signed.example.com',
      to: 'reader@example.org',
      subject: 'Signed',
      html: '<p>Hello</p>'.repeat(200),
      text: 'Hello',
      dkim: key!,
    });
    const result = await dkimVerify(info.message as Buffer, { resolver: dns.resolver() as never });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ signingDomain: 'signed.example.com', selector: key!.keySelector, status: { result: 'pass' } });

    // The same message no longer verifies once the record is gone: the pass above came from DNS.
    dns.clear(records.find((r) => r.purpose === 'dkim')!.name);
    const missing = await dkimVerify(info.message as Buffer, { resolver: dns.resolver() as never });
    expect(missing.results[0].status.result).not.toBe('pass');
    dns.publish(records);
  });

  it('refuses an unverified sender domain with 403 DOMAIN_NOT_VERIFIED', async () => {
    const res = await s.api
      .post('/v1/send')
      .send({ to: 'reader@example.org', from: 'news@unverified.example.com', subject: 'Hi', body: '<p>Hi</p>' })
      .expect(403);
    expect(res.body.error.code).toBe('DOMAIN_NOT_VERIFIED');
  });

  it('signs mail from a verified domain (and its subdomains) so the receiver verifies it through DNS', async () => {
    const records = (await addVerifiedDomain(s.api, dns, 'sender.example.com')).records as RecordBody[];
    const selector = records.find((r) => r.purpose === 'dkim')!.name.split('.')[0];

    for (const [from, to] of [
      ['News <news@sender.example.com>', 'first@example.org'],
      ['alerts@eu.sender.example.com', 'second@example.org'],
    ]) {
      const address = from.includes('<') ? from.slice(from.indexOf('<') + 1, -1) : from;
      const name = from.includes('<') ? from.slice(0, from.indexOf('<')).trim() : undefined;
      await s.api
        .post('/v1/send')
        .send({ to, from: name ? { name, email: address } : address, subject: 'Signed mail', body: '<p>Hello from a verified domain</p>' })
        .expect(200);
      const message = await smtp.waitFor(to);
      expect(message.raw.toString()).toMatch(/^DKIM-Signature:/m);
      expect(message.dkim).toHaveLength(1);
      expect(message.dkim![0]).toMatchObject({ signingDomain: 'sender.example.com', selector, status: { result: 'pass' } });
    }
  });
});
