import { addVerifiedDomain, TestDnsServer } from '../support/dns-server';
import { useFixture, useSession } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

/*
 * The project's `defaultFrom`: the sender of a send that names none, as Plunk's Node SDK README
 * call (`plunk.emails.send({ to, subject, body })`) does. Domain verification is on, through the
 * test DNS server, so the rule "on a verified domain of the project" is exercised. "Nothing
 * stored" is read through the API (`total` of GET /v1/emails).
 */
describe('project defaultFrom', () => {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'dns' }));
  const patch = (body: unknown) => s.dashboard.patch(`/users/@me/projects/${s.project.id}`, body);
  const project = async () => (await s.dashboard.get(`/users/@me/projects/${s.project.id}`).expect(200)).body;
  const emailCount = async () => (await s.api.get('/v1/emails', { limit: 1 }).expect(200)).body.total as number;
  const sdkCall = (to: string) => s.api.post('/v1/send', { to, subject: 'Welcome', body: '<p>Hi {{name ?? "there"}}</p>' });

  beforeAll(async () => {
    await addVerifiedDomain(s.api, dns, 'acme.test');
  });

  it('without from, a template or a defaultFrom: 422 whose message names defaultFrom and how to set it; nothing stored', async () => {
    const res = await sdkCall('first@example.org').expect(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([{ field: 'from', code: 'required', message: expect.stringContaining("the project's defaultFrom") }]);
    expect(res.body.error.errors[0].message).toContain('PATCH /users/@me/projects/:id {"defaultFrom"');
    expect(await s.read.contactCount()).toBe(0);
    expect(await emailCount()).toBe(0);
  });

  it('is set on a verified domain of the project only (422 naming the field otherwise), shown with the project, and cleared by null', async () => {
    expect((await project()).defaultFrom).toBeNull();
    const other = await s.newProject('Other');
    await addVerifiedDomain(other.api, dns, 'other.test');
    const cases: Array<[unknown, string, string?]> = [
      [{ email: 'hi@unverified.example' }, 'defaultFrom.email', 'domain_not_verified'],
      [{ email: 'hi@other.test' }, 'defaultFrom.email', 'domain_not_verified'],
      ['hi@acme.test', 'defaultFrom'],
      [{}, 'defaultFrom.email'],
      [{ email: 'not-an-address' }, 'defaultFrom.email'],
      [{ email: 'hi@acme.test', name: 'A\r\nBcc: x@evil.example' }, 'defaultFrom.name'],
      [{ email: 'hi@acme.test', name: 42 }, 'defaultFrom.name'],
    ];
    for (const [defaultFrom, field, code] of cases) {
      const res = await patch({ defaultFrom }).expect(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      if (code) expect(res.body.error.errors[0]).toMatchObject({ code, message: expect.stringContaining('verified domain') });
    }
    expect((await project()).defaultFrom).toBeNull();

    const set = await patch({ defaultFrom: { email: 'Hello@Acme.test', name: ' Acme ' } }).expect(200);
    expect(set.body.defaultFrom).toEqual({ email: 'hello@acme.test', name: 'Acme' });
    const list = await s.dashboard.get('/users/@me/projects').expect(200);
    expect(list.body.find((p: { id: string }) => p.id === s.project.id).defaultFrom).toEqual({ email: 'hello@acme.test', name: 'Acme' });
    // A subdomain of a verified domain is a valid sender; other settings leave defaultFrom alone.
    expect((await patch({ defaultFrom: { email: 'news@mail.acme.test' } }).expect(200)).body.defaultFrom).toEqual({ email: 'news@mail.acme.test', name: null });
    expect((await patch({ name: 'Renamed' }).expect(200)).body.defaultFrom).toEqual({ email: 'news@mail.acme.test', name: null });
    expect((await patch({ defaultFrom: null }).expect(200)).body.defaultFrom).toBeNull();
    expect((await project()).defaultFrom).toBeNull();
    // Another project's settings are not reachable.
    await other.dashboard.patch(`/users/@me/projects/${s.project.id}`, { defaultFrom: { email: 'hi@other.test' } }).expect(404);
  });

  it("sends the SDK's README call from the defaultFrom at once; an explicit from, then a template's sender, win over it", async () => {
    await patch({ defaultFrom: { email: 'hello@acme.test', name: 'Acme' } }).expect(200);
    // Right after the setting changed (the project was read for the 422 above): no stale answer.
    await sdkCall('sdk@example.org').expect(200);
    const sdk = await smtp.waitFor('sdk@example.org');
    expect(sdk.envelope.from).toBe('hello@acme.test');
    expect(sdk.parsed!.from!.value[0]).toEqual({ name: 'Acme', address: 'hello@acme.test' });
    expect(sdk.parsed!.html).toContain('<p>Hi there</p>');

    await s.api.post('/v1/send', { to: 'explicit@example.org', from: 'team@acme.test', subject: 's', body: 'b' }).expect(200);
    expect((await smtp.waitFor('explicit@example.org')).parsed!.from!.value[0]).toEqual({ name: '', address: 'team@acme.test' });

    const template = await s.api.post('/templates', { name: 'Receipt', subject: 'Receipt', body: '<p>r</p>', from: 'billing@acme.test', fromName: 'Billing', type: 'TRANSACTIONAL' }).expect(201);
    await s.api.post('/v1/send', { to: 'tpl@example.org', template: template.body.id }).expect(200);
    expect((await smtp.waitFor('tpl@example.org')).parsed!.from!.value[0]).toEqual({ name: 'Billing', address: 'billing@acme.test' });
  });

  it('answers 403 DOMAIN_NOT_VERIFIED, not a 500, once the domain of the defaultFrom is deleted; nothing stored', async () => {
    const brand = await addVerifiedDomain(s.api, dns, 'brand.test');
    await patch({ defaultFrom: { email: 'hello@brand.test' } }).expect(200);
    await sdkCall('brand@example.org').expect(200);
    await smtp.waitFor('brand@example.org');
    await s.api.delete(`/domains/${brand.id}`).expect(204);
    const before = { emails: await emailCount(), contacts: await s.read.contactCount() };
    const res = await sdkCall('after-delete@example.org').expect(403);
    expect(res.body.error).toMatchObject({ code: 'DOMAIN_NOT_VERIFIED', details: { domain: 'brand.test' } });
    expect({ emails: await emailCount(), contacts: await s.read.contactCount() }).toEqual(before);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await s.anonymous.get('/docs/openapi.json').expect(200)).body;
    expect(doc.components.schemas.UpdateProjectDto.properties).toHaveProperty('defaultFrom');
    expect(doc.components.schemas.ProjectResponse.properties).toHaveProperty('defaultFrom');
    expect(Object.keys(doc.components.schemas.DefaultFromDto.properties).sort()).toEqual(['email', 'name']);
  });
});
