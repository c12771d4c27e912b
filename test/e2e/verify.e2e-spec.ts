import { TestDnsServer } from '../support/dns-server';
import { apiClient, bearer, useFixture, useSession } from '../support/session';

describe('POST /v1/verify', () => {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const s = useSession(() => dns.env());

  const verify = (email: unknown, key = s.keys.secret) => apiClient(s.http, bearer(key)).post('/v1/verify', { email });

  beforeAll(() => {
    dns.setRecords('good.example', 'MX', [{ exchange: 'mx.good.example', priority: 10 }]);
    dns.setRecords('a-only.example', 'A', ['192.0.2.10']);
    dns.setRecords('txt-only.example', 'TXT', ['v=spf1 -all']);
    dns.setRecords('nullmx.example', 'MX', [{ exchange: '', priority: 0 }]);
    dns.setRecords('gmail.com', 'MX', [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }]);
    dns.setRecords('gmial.com', 'A', ['192.0.2.20']);
    dns.setRecords('mailinator.com', 'MX', [{ exchange: 'mail.mailinator.com', priority: 10 }]);
    dns.setRecords('good.example', 'A', ['192.0.2.30']);
    dns.setRecords('v6-site.example', 'MX', [{ exchange: 'mx.v6-site.example', priority: 10 }]);
    dns.setRecords('v6-site.example', 'AAAA', ['2001:db8::1']);
  });

  it('accepts a well-formed address whose domain has MX records', async () => {
    const res = await verify('  Jane.Doe@Good.Example ').expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        email: 'Jane.Doe@good.example',
        valid: true,
        isDisposable: false,
        isTypo: false,
        isPlusAddressed: false,
        isAlias: false,
        isPersonalEmail: false,
        domainExists: true,
        hasMxRecords: true,
        hasWebsite: true,
        reasons: [],
      },
    });
  });

  it("answers Plunk's isAlias, isPersonalEmail and hasWebsite", async () => {
    const alias = await verify('jane+news@good.example').expect(200);
    expect(alias.body.data).toMatchObject({ isAlias: true, isPlusAddressed: true, isPersonalEmail: false, hasWebsite: true });
    // A free-mail provider from the maintained list; gmail.com here has MX records but no A/AAAA.
    const personal = await verify('Jane@GMail.com').expect(200);
    expect(personal.body.data).toMatchObject({ valid: true, isAlias: false, isPersonalEmail: true, hasWebsite: false });
    // An AAAA record alone is a website.
    const v6 = await verify('x@v6-site.example').expect(200);
    expect(v6.body.data).toMatchObject({ valid: true, isPersonalEmail: false, hasWebsite: true, hasMxRecords: true });
    const aOnly = await verify('x@a-only.example').expect(200);
    expect(aOnly.body.data).toMatchObject({ hasWebsite: true, hasMxRecords: false });
    const noSite = await verify('x@txt-only.example').expect(200);
    expect(noSite.body.data).toMatchObject({ hasWebsite: false });
    const missing = await verify('x@missing.example').expect(200);
    expect(missing.body.data).toMatchObject({ isAlias: false, isPersonalEmail: false, hasWebsite: false });
    const malformed = await verify('not an address').expect(200);
    expect(malformed.body.data).toMatchObject({ isAlias: false, isPersonalEmail: false, hasWebsite: false });
  });

  it('reports plus-addressing without judging it', async () => {
    const res = await verify('jane+news@good.example').expect(200);
    expect(res.body.data).toMatchObject({ valid: true, isPlusAddressed: true, reasons: ['plus_addressed'] });
  });

  it('falls back to A records when there is no MX', async () => {
    const res = await verify('x@a-only.example').expect(200);
    expect(res.body.data).toMatchObject({ valid: true, domainExists: true, hasMxRecords: false, reasons: ['mx_fallback_a'] });
  });

  it('rejects a domain that exists but cannot receive mail', async () => {
    const res = await verify('x@txt-only.example').expect(200);
    expect(res.body.data).toMatchObject({ valid: false, domainExists: true, hasMxRecords: false, reasons: ['no_mx_records'] });
    const nullMx = await verify('x@nullmx.example').expect(200);
    expect(nullMx.body.data).toMatchObject({ valid: false, domainExists: true, reasons: ['null_mx'] });
  });

  it('rejects a domain that does not exist', async () => {
    const res = await verify('x@missing.example').expect(200);
    expect(res.body.data).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false, reasons: ['domain_not_found'] });
  });

  it('flags disposable domains from the maintained list', async () => {
    const res = await verify('throwaway@mailinator.com').expect(200);
    expect(res.body.data).toMatchObject({ valid: false, isDisposable: true, hasMxRecords: true, reasons: ['disposable_domain'] });
  });

  it('suggests the intended provider for a typo', async () => {
    const res = await verify('jane@gmial.com').expect(200);
    expect(res.body.data).toMatchObject({ isTypo: true, suggestedEmail: 'jane@gmail.com', domainExists: true });
    expect(res.body.data.reasons).toContain('possible_typo');
    const tld = await verify('jane@gmail.con').expect(200);
    expect(tld.body.data).toMatchObject({ valid: false, isTypo: true, suggestedEmail: 'jane@gmail.com', domainExists: false });
    const none = await verify('jane@gmail.com').expect(200);
    expect(none.body.data).toMatchObject({ valid: true, isTypo: false });
    expect(none.body.data).not.toHaveProperty('suggestedEmail');
  });

  it.each([['plainaddress'], ['@good.example'], ['a@'], ['a..b@good.example'], ['a b@good.example'], ['a@localhost'], ['a@exa mple.com'], [`${'x'.repeat(65)}@good.example`]])(
    'answers valid:false for the malformed address %j',
    async (email) => {
      const res = await verify(email).expect(200);
      expect(res.body.data).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false, reasons: ['invalid_syntax'] });
    },
  );

  it('answers 422 when email is missing or not a string', async () => {
    const missing = await s.api.post('/v1/verify', {}).expect(422);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    expect(missing.body.error.errors[0].field).toBe('email');
    await verify(42).expect(422);
  });

  it('needs the secret key', async () => {
    await verify('x@good.example', s.keys.public).expect(401);
    await s.anonymous.post('/v1/verify', { email: 'x@good.example' }).expect(401);
  });
});
