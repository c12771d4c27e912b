import { dkimVerify } from 'mailauth/lib/dkim/verify';
import nodemailer from 'nodemailer';
import request from 'supertest';
import { DomainsService } from '../../src/modules/domains/domains.service';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';
import { TestDnsServer } from '../support/dns-server';
import { SmtpReceiver } from '../support/smtp-receiver';

interface RecordBody {
  type: string;
  name: string;
  value: string;
  required: boolean;
  purpose: string;
}

const auth = (project: TestProject) => ({ Authorization: `Bearer ${project.secretKey}` });

describe('DKIM signing', () => {
  let dns: TestDnsServer;
  let smtp: SmtpReceiver;
  let app: TestApp;
  let project: TestProject;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    smtp = await SmtpReceiver.start({ dkimResolver: dns.resolver() as never });
    app = await startTestApp({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'dns' });
    project = await createProject(app.http);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await dns?.close();
  });

  it('signs with the key published in DNS: mailauth verifies the signature through the test zone', async () => {
    const created = await request(app.http).post('/domains').set(auth(project)).send({ domain: 'signed.example.com' }).expect(201);
    const records: RecordBody[] = created.body.records;
    dns.publish(records);
    const verified = await request(app.http).get(`/domains/${created.body.id}/verify`).set(auth(project)).expect(200);
    expect(verified.body.status).toBe('verified');

    const key = await app.runtime.app.get(DomainsService).dkimKeyFor(project.id, 'news@mail.signed.example.com');
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
    const res = await request(app.http)
      .post('/v1/send')
      .set(auth(project))
      .send({ to: 'reader@example.org', from: 'news@unverified.example.com', subject: 'Hi', body: '<p>Hi</p>' })
      .expect(403);
    expect(res.body.error.code).toBe('DOMAIN_NOT_VERIFIED');
  });

  it('signs mail from a verified domain (and its subdomains) so the receiver verifies it through DNS', async () => {
    const created = await request(app.http).post('/domains').set(auth(project)).send({ domain: 'sender.example.com' }).expect(201);
    const records: RecordBody[] = created.body.records;
    dns.publish(records);
    await request(app.http).get(`/domains/${created.body.id}/verify`).set(auth(project)).expect(200);
    const selector = records.find((r) => r.purpose === 'dkim')!.name.split('.')[0];

    for (const [from, to] of [
      ['News <news@sender.example.com>', 'first@example.org'],
      ['alerts@eu.sender.example.com', 'second@example.org'],
    ]) {
      const address = from.includes('<') ? from.slice(from.indexOf('<') + 1, -1) : from;
      const name = from.includes('<') ? from.slice(0, from.indexOf('<')).trim() : undefined;
      await request(app.http)
        .post('/v1/send')
        .set(auth(project))
        .send({ to, from: name ? { name, email: address } : address, subject: 'Signed mail', body: '<p>Hello from a verified domain</p>' })
        .expect(200);
      const message = await smtp.waitFor(to);
      expect(message.raw.toString()).toMatch(/^DKIM-Signature:/m);
      expect(message.dkim).toHaveLength(1);
      expect(message.dkim![0]).toMatchObject({ signingDomain: 'sender.example.com', selector, status: { result: 'pass' } });
    }
  });
});
