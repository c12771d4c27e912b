import { dkimVerify } from 'mailauth/lib/dkim/verify';
import nodemailer from 'nodemailer';
import request from 'supertest';
import { DomainsService } from '../../src/modules/domains/domains.service';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';
import { TestDnsServer } from '../support/dns-server';

interface RecordBody {
  type: string;
  name: string;
  value: string;
  required: boolean;
  purpose: string;
}

const auth = (project: TestProject) => ({ Authorization: `Bearer ${project.secretKey}` });

describe('DKIM keys of verified domains', () => {
  let dns: TestDnsServer;
  let app: TestApp;
  let project: TestProject;
  let records: RecordBody[];

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    app = await startTestApp({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://127.0.0.1:9', DOMAIN_VERIFICATION: 'dns' });
    project = await createProject(app.http);
    const created = await request(app.http).post('/domains').set(auth(project)).send({ domain: 'signed.example.com' }).expect(201);
    records = created.body.records;
    for (const r of records) dns.setRecords(r.name, r.type as 'TXT', [r.value]);
    const verified = await request(app.http).get(`/domains/${created.body.id}/verify`).set(auth(project)).expect(200);
    expect(verified.body.status).toBe('verified');
  });
  afterAll(async () => {
    await app?.close();
    await dns?.close();
  });

  it('signs with the key published in DNS: mailauth verifies the signature through the test zone', async () => {
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
    for (const r of records) dns.setRecords(r.name, r.type as 'TXT', [r.value]);
  });
});
