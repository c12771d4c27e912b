import { DomainVerificationScheduler } from '../../src/modules/domains/worker/domain-verification.scheduler';
import { DomainsService } from '../../src/modules/domains/domains.service';
import { TestDnsServer } from '../support/dns-server';
import { ProjectSession, useFixture, useSession } from '../support/session';
import { SES_DKIM_TOKENS, SesServer } from '../support/ses-server';

/*
 * White-box, because no endpoint shows it: the DKIM private key as stored (encrypted), the
 * background round's due time (made due by setting last_checked_at), and the sender rules of
 * `DomainsService` (assertSenderAllowed, dkimKeyFor) across projects and subdomains.
 */

interface RecordBody {
  type: string;
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  purpose: string;
  status: string;
}

describe('domains (smtp transport, DNS verification)', () => {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const s = useSession(() => ({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://127.0.0.1:9', DOMAIN_VERIFICATION: 'dns' }));
  let other: ProjectSession;
  beforeAll(async () => {
    other = await s.newProject();
  });

  it('adds a domain with a DKIM key and returns the records to publish', async () => {
    const res = await s.api.post('/domains').send({ domain: 'Mail-Test.Example.com.' }).expect(201);
    expect(res.body).toMatchObject({ domain: 'mail-test.example.com', status: 'pending', verified: false, verifiedAt: null });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(res.body.createdAt).getTime()).toBeGreaterThan(0);
    const records: RecordBody[] = res.body.records;
    const dkim = records.find((r) => r.purpose === 'dkim')!;
    expect(dkim).toMatchObject({ type: 'TXT', required: true, status: 'pending' });
    expect(dkim.name).toMatch(/^[a-z0-9]+\._domainkey\.mail-test\.example\.com$/);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(records.find((r) => r.purpose === 'spf')).toMatchObject({ type: 'TXT', name: 'mail-test.example.com', required: false });
    expect(records.find((r) => r.purpose === 'dmarc')).toMatchObject({ type: 'TXT', name: '_dmarc.mail-test.example.com', required: false });
  });

  it('stores the DKIM private key encrypted', async () => {
    // Read in SQL: how the key is stored at rest is the database's own state (no endpoint shows the private key).
    const rows = await s.db.query<{ dkim_private_key: string }>(`SELECT dkim_private_key FROM domains WHERE domain = 'mail-test.example.com'`);
    expect(rows[0].dkim_private_key).toMatch(/^v1:/);
    expect(rows[0].dkim_private_key).not.toContain('PRIVATE KEY');
  });

  it('converts international names to punycode', async () => {
    const res = await s.api.post('/domains').send({ domain: 'BÜCHER.example' }).expect(201);
    expect(res.body.domain).toBe('xn--bcher-kva.example');
  });

  it.each([['not a domain'], ['localhost'], ['127.0.0.1'], ['exa_mple.com'], ['-bad.example.com'], ['a@b.com'], ['https://example.com'], [''], ['x'.repeat(64) + '.com']])(
    'rejects the invalid name %j with 422',
    async (domain) => {
      const res = await s.api.post('/domains').send({ domain }).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.errors[0].field).toBe('domain');
    },
  );

  it('rejects a missing or non-string domain with 422', async () => {
    await s.api.post('/domains').send({}).expect(422);
    await s.api.post('/domains').send({ domain: 42 }).expect(422);
  });

  it('answers 409 for a domain already added by this or another project', async () => {
    const again = await s.api.post('/domains').send({ domain: 'mail-test.example.com' }).expect(409);
    expect(again.body.error.code).toBe('CONFLICT');
    await other.api.post('/domains').send({ domain: 'MAIL-TEST.example.com' }).expect(409);
  });

  it('lists only the caller project domains, and 404s for another project id', async () => {
    const res = await s.api.get(`/domains/project/${s.project.id}`).expect(200);
    expect(res.body.map((d: { domain: string }) => d.domain)).toEqual(['mail-test.example.com', 'xn--bcher-kva.example']);
    await s.api.get(`/domains/project/${other.project.id}`).expect(404);
    await s.api.get(`/domains/project/not-a-uuid`).expect(404);
    const empty = await other.api.get(`/domains/project/${other.project.id}`).expect(200);
    expect(empty.body).toEqual([]);
  });

  it('requires a secret key', async () => {
    await s.anonymous.get(`/domains/project/${s.project.id}`).expect(401);
    await s.publicApi.post('/domains').send({ domain: 'x.example.com' }).expect(401);
  });

  it('verifies when the required records resolve, and goes back to pending when they vanish', async () => {
    const created = await s.api.post('/domains').send({ domain: 'verify.example.org' }).expect(201);
    const id = created.body.id;
    const pending = await s.api.get(`/domains/${id}/verify`).expect(200);
    expect(pending.body).toMatchObject({ status: 'pending', verified: false });
    expect(pending.body.lastCheckedAt).toBeTruthy();

    // Only the optional records: still pending, but their own statuses are reported.
    dns.publish(created.body.records, (r) => !r.required);
    const partial = await s.api.get(`/domains/${id}/verify`).expect(200);
    expect(partial.body.status).toBe('pending');
    expect(partial.body.records.filter((r: RecordBody) => !r.required).every((r: RecordBody) => r.status === 'verified')).toBe(true);

    dns.publish(created.body.records, (r) => r.required === true);
    const verified = await s.api.get(`/domains/${id}/verify`).expect(200);
    expect(verified.body).toMatchObject({ status: 'verified', verified: true });
    expect(verified.body.records.every((r: RecordBody) => r.status === 'verified')).toBe(true);
    expect(new Date(verified.body.verifiedAt).getTime()).toBeGreaterThan(0);

    dns.clear(created.body.records.find((r: RecordBody) => r.purpose === 'dkim').name);
    const lapsed = await s.api.get(`/domains/${id}/verify`).expect(200);
    expect(lapsed.body).toMatchObject({ status: 'pending', verified: false, verifiedAt: null });
    expect(lapsed.body.records.find((r: RecordBody) => r.purpose === 'dkim').status).toBe('pending');
  });

  it('accepts a DKIM record published with other spacing and extra tags', async () => {
    const created = await s.api.post('/domains').send({ domain: 'spacing.example.org' }).expect(201);
    const dkim: RecordBody = created.body.records.find((r: RecordBody) => r.purpose === 'dkim');
    const key = dkim.value.split('p=')[1];
    dns.setRecords(dkim.name, 'TXT', ['v=spf1 -all', `v=DKIM1;k=rsa;t=s;p=${key.slice(0, 100)} ${key.slice(100)}`]);
    const res = await s.api.get(`/domains/${created.body.id}/verify`).expect(200);
    expect(res.body.status).toBe('verified');
    dns.setRecords(dkim.name, 'TXT', [`v=DKIM1; k=rsa; p=${key.slice(0, -8)}AAAAAAAA`]);
    const wrong = await s.api.get(`/domains/${created.body.id}/verify`).expect(200);
    expect(wrong.body.status).toBe('pending');
  });

  it('runs the background check for pending and verified domains', async () => {
    const created = await other.api.post('/domains').send({ domain: 'background.example.net' }).expect(201);
    dns.publish(created.body.records);
    const scheduler = s.app.runtime.app.get(DomainVerificationScheduler);
    const db = s.db;
    // Every domain is due: the round re-checks verified ones too.
    // Time travel in SQL: no endpoint moves a domain's last check.
    await db.query(`UPDATE domains SET last_checked_at = NULL`);
    expect(await scheduler.runOnce()).toBeGreaterThanOrEqual(4);
    const listed = await other.api.get(`/domains/project/${other.project.id}`).expect(200);
    expect(listed.body[0]).toMatchObject({ domain: 'background.example.net', status: 'verified' });

    // Checked moments ago: a second worker firing right after does not repeat the round.
    expect(await scheduler.runOnce()).toBe(0);

    dns.clear(created.body.records.find((r: RecordBody) => r.purpose === 'dkim').name);
    // Time travel in SQL: no endpoint moves a domain's last check.
    await db.query(`UPDATE domains SET last_checked_at = now() - interval '10 minutes' WHERE id = $1`, [created.body.id]);
    expect(await scheduler.runOnce()).toBe(1);
    const after = await other.api.get(`/domains/project/${other.project.id}`).expect(200);
    expect(after.body[0]).toMatchObject({ status: 'pending', verified: false });
  });

  it('allows only verified domains of the project (and their subdomains) as senders', async () => {
    const created = await s.api.post('/domains').send({ domain: 'senders.example.io' }).expect(201);
    const domains = s.app.runtime.app.get(DomainsService);
    await expect(domains.assertSenderAllowed(s.project.id, 'hello@senders.example.io')).rejects.toMatchObject({ statusCode: 403, code: 'DOMAIN_NOT_VERIFIED' });
    expect(await domains.dkimKeyFor(s.project.id, 'hello@senders.example.io')).toBeNull();

    dns.publish(created.body.records);
    await s.api.get(`/domains/${created.body.id}/verify`).expect(200);
    await expect(domains.assertSenderAllowed(s.project.id, 'hello@senders.example.io')).resolves.toBeUndefined();
    await expect(domains.assertSenderAllowed(s.project.id, 'hello@News.Senders.example.io')).resolves.toBeUndefined();
    await expect(domains.assertSenderAllowed(s.project.id, 'hello@example.io')).rejects.toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
    await expect(domains.assertSenderAllowed(s.project.id, 'hello@othersenders.example.io')).rejects.toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
    await expect(domains.assertSenderAllowed(other.project.id, 'hello@senders.example.io')).rejects.toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
    await expect(domains.assertSenderAllowed(s.project.id, 'no-domain')).rejects.toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });

    const key = await domains.dkimKeyFor(s.project.id, 'hello@news.senders.example.io');
    const selector = created.body.records.find((r: RecordBody) => r.purpose === 'dkim').name.split('.')[0];
    expect(key).toEqual({ domainName: 'senders.example.io', keySelector: selector, privateKey: expect.stringContaining('BEGIN PRIVATE KEY') });
    expect(await domains.dkimKeyFor(other.project.id, 'hello@senders.example.io')).toBeNull();
  });

  it('deletes a domain with 204; unknown, malformed and foreign ids are 404', async () => {
    const created = await s.api.post('/domains').send({ domain: 'delete-me.example.com' }).expect(201);
    await other.api.delete(`/domains/${created.body.id}`).expect(404);
    await other.api.get(`/domains/${created.body.id}/verify`).expect(404);
    await s.api.delete(`/domains/not-a-uuid`).expect(404);
    await s.api.get(`/domains/not-a-uuid/verify`).expect(404);
    await s.api.delete(`/domains/${created.body.id}`).expect(204);
    await s.api.delete(`/domains/${created.body.id}`).expect(404);
    // The name is free again once deleted.
    await other.api.post('/domains').send({ domain: 'delete-me.example.com' }).expect(201);
  });

  it('answers 409 while a template sends from the domain or a subdomain, 204 once none does', async () => {
    const created = await s.api.post('/domains').send({ domain: 'inuse.example.com' }).expect(201);
    dns.publish(created.body.records);
    await s.api.get(`/domains/${created.body.id}/verify`).expect(200);
    const template = await s.api
      .post('/templates')
      .send({ name: 'Welcome', subject: 'Hi', body: '<p>Hi</p>', from: 'news@letters.inuse.example.com' })
      .expect(201);
    const res = await s.api.delete(`/domains/${created.body.id}`).expect(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.details).toMatchObject({ domain: 'inuse.example.com', templates: 1 });
    const templateId = template.body.id ?? template.body.data?.id;
    await s.api.delete(`/templates/${templateId}`).expect(204);
    await s.api.delete(`/domains/${created.body.id}`).expect(204);
  });
});

describe('domains with DOMAIN_VERIFICATION=off', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off', DNS_SERVERS: '127.0.0.1:9' });

  it('shows every domain as verified and lets any sender through', async () => {
    const res = await s.api.post('/domains').send({ domain: 'off.example.com' }).expect(201);
    expect(res.body).toMatchObject({ status: 'verified', verified: true });
    expect(res.body.verifiedAt).toBeTruthy();
    const domains = s.app.runtime.app.get(DomainsService);
    await expect(domains.assertSenderAllowed(s.project.id, 'x@anything.example')).resolves.toBeUndefined();
    // The outbox still signs with the domain's key.
    expect(await domains.dkimKeyFor(s.project.id, 'x@off.example.com')).toMatchObject({ domainName: 'off.example.com' });
  });
});

describe('domains with the ses transport', () => {
  const ses = useFixture(() => SesServer.start({ refuseDomains: ['refused.example.com'], refuseDeletes: ['stuck.example.com'] }), (server) => server.close());
  const s = useSession(() => ({ ...ses.env, AWS_REGION: 'eu-west-1', DOMAIN_VERIFICATION: 'dns', DNS_SERVERS: '127.0.0.1:9' }));

  it('registers the identity with SES and returns its DKIM CNAMEs and MAIL FROM records', async () => {
    const res = await s.api.post('/domains').send({ domain: 'ses.example.com' }).expect(201);
    expect(ses.actions.find((a) => a.Action === 'VerifyDomainDkim')).toMatchObject({ Domain: 'ses.example.com' });
    expect(ses.actions.find((a) => a.Action === 'SetIdentityMailFromDomain')).toMatchObject({ Identity: 'ses.example.com', MailFromDomain: 'bounce.ses.example.com' });
    const records: RecordBody[] = res.body.records;
    expect(records.filter((r) => r.type === 'CNAME')).toEqual(
      SES_DKIM_TOKENS.map((t) => ({
        type: 'CNAME',
        name: `${t}._domainkey.ses.example.com`,
        value: `${t}.dkim.amazonses.com`,
        required: true,
        purpose: 'dkim',
        status: 'pending',
      })),
    );
    expect(records.find((r) => r.type === 'MX')).toMatchObject({ name: 'bounce.ses.example.com', value: 'feedback-smtp.eu-west-1.amazonses.com', priority: 10 });
    expect(records.find((r) => r.type === 'TXT')).toMatchObject({ name: 'bounce.ses.example.com', value: 'v=spf1 include:amazonses.com ~all' });
    // SES signs its own mail: no key of ours is involved.
    expect(await s.app.runtime.app.get(DomainsService).dkimKeyFor(s.project.id, 'x@ses.example.com')).toBeNull();
  });

  it('answers 502 SES_ERROR when SES refuses the identity, and stores nothing', async () => {
    const res = await s.api.post('/domains').send({ domain: 'refused.example.com' }).expect(502);
    expect(res.body.error.code).toBe('SES_ERROR');
    expect(res.body.error.message).toContain('Domain refused.example.com refused');
    const listed = await s.api.get(`/domains/project/${s.project.id}`).expect(200);
    expect(listed.body.map((d: { domain: string }) => d.domain)).toEqual(['ses.example.com']);
  });

  it('removes the SES identity when the domain is deleted', async () => {
    const created = await s.api.post('/domains').send({ domain: 'gone.example.com' }).expect(201);
    await s.api.delete(`/domains/${created.body.id}`).expect(204);
    expect(ses.actions.filter((a) => a.Action === 'DeleteIdentity')).toEqual([expect.objectContaining({ Identity: 'gone.example.com' })]);
    const listed = await s.api.get(`/domains/project/${s.project.id}`).expect(200);
    expect(listed.body.map((d: { domain: string }) => d.domain)).not.toContain('gone.example.com');
  });

  it('keeps the domain, answering 502 SES_ERROR, when SES refuses to remove the identity', async () => {
    const created = await s.api.post('/domains').send({ domain: 'stuck.example.com' }).expect(201);
    const res = await s.api.delete(`/domains/${created.body.id}`).expect(502);
    expect(res.body.error).toMatchObject({ code: 'SES_ERROR', details: { domain: 'stuck.example.com' } });
    const listed = await s.api.get(`/domains/project/${s.project.id}`).expect(200);
    expect(listed.body.map((d: { domain: string }) => d.domain)).toContain('stuck.example.com');
  });
});
