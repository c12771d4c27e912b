import type { DnsResolver } from './dns-resolver';
import { DnsLookupError } from './dns-resolver';
import { ownDkimRecords, recordMatches, sesRecords, withBounceRecords } from './domain-records';

/** A resolver answering from a fixed table; unknown names are absent. */
function fakeDns(table: Record<string, { txt?: string[]; cname?: string[]; mx?: string[] }>, failing: string[] = []): DnsResolver {
  const guard = (name: string, type: string) => {
    if (failing.includes(name)) throw new DnsLookupError('ETIMEOUT', name, type);
  };
  return {
    txt: async (name: string) => (guard(name, 'TXT'), table[name]?.txt ?? []),
    cname: async (name: string) => (guard(name, 'CNAME'), table[name]?.cname ?? []),
    mx: async (name: string) => (guard(name, 'MX'), (table[name]?.mx ?? []).map((exchange) => ({ exchange, priority: 10 }))),
  } as unknown as DnsResolver;
}

describe('recordMatches', () => {
  const [dkim, spf, dmarc] = ownDkimRecords('example.com', 'mr1', 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA');

  it('matches a DKIM key regardless of tag order, spacing and extra tags', async () => {
    const dns = fakeDns({ 'mr1._domainkey.example.com': { txt: ['k=rsa;  t=s; v=DKIM1; p=MIIBIjANBgkqhkiG9w0B AQEFAAOCAQ8AMIIBCgKCAQEA'] } });
    expect(await recordMatches(dns, dkim)).toBe(true);
  });

  it('rejects another key, a missing record and a failed lookup', async () => {
    expect(await recordMatches(fakeDns({ 'mr1._domainkey.example.com': { txt: ['v=DKIM1; k=rsa; p=OTHER'] } }), dkim)).toBe(false);
    expect(await recordMatches(fakeDns({}), dkim)).toBe(false);
    expect(await recordMatches(fakeDns({}, ['mr1._domainkey.example.com']), dkim)).toBe(false);
  });

  it('accepts any SPF policy and any DMARC policy for our own records', async () => {
    const dns = fakeDns({ 'example.com': { txt: ['google-site-verification=x', 'v=spf1 include:_spf.google.com -all'] }, '_dmarc.example.com': { txt: ['v=DMARC1; p=reject'] } });
    expect(await recordMatches(dns, spf)).toBe(true);
    expect(await recordMatches(dns, dmarc)).toBe(true);
    expect(await recordMatches(fakeDns({ 'example.com': { txt: ['v=spf10 nope'] } }), spf)).toBe(false);
  });

  it('requires the SES include, CNAME targets and MX exchange for SES records', async () => {
    const records = sesRecords('example.com', 'eu-west-1', ['tok'], 'bounce.example.com');
    const [cname, mx, sesSpf] = records;
    const dns = fakeDns({
      'tok._domainkey.example.com': { cname: ['TOK.dkim.amazonses.com.'] },
      'bounce.example.com': { mx: ['feedback-smtp.eu-west-1.amazonses.com'], txt: ['v=spf1 include:amazonses.com ~all'] },
    });
    expect(await recordMatches(dns, cname)).toBe(true);
    expect(await recordMatches(dns, mx)).toBe(true);
    expect(await recordMatches(dns, sesSpf)).toBe(true);
    expect(await recordMatches(fakeDns({ 'bounce.example.com': { txt: ['v=spf1 mx -all'] } }), sesSpf)).toBe(false);
    expect(await recordMatches(fakeDns({ 'bounce.example.com': { mx: ['mx.other.example'] } }), mx)).toBe(false);
  });
});

describe('bounce subdomain records (INBOUND_MX_HOST)', () => {
  const own = [{ type: 'TXT' as const, name: 'example.com', value: 'v=spf1 a mx ~all', required: false, purpose: 'spf' as const, status: 'verified' as const }];

  it('adds the MX and SPF of the bounce subdomain, keeps their statuses while the host is unchanged, and drops them when unset', () => {
    const added = withBounceRecords(own, 'bounces.example.com', 'mx.mailroom.test');
    expect(added.slice(1)).toEqual([
      { type: 'MX', name: 'bounces.example.com', value: 'mx.mailroom.test', priority: 10, required: false, purpose: 'mail-from', status: 'pending' },
      { type: 'TXT', name: 'bounces.example.com', value: 'v=spf1 a mx ~all', required: false, purpose: 'spf', status: 'pending' },
    ]);
    const checked = added.map((r) => ({ ...r, status: 'verified' as const }));
    expect(withBounceRecords(checked, 'bounces.example.com', 'mx.mailroom.test')).toEqual(checked);
    expect(withBounceRecords(checked, 'bounces.example.com', 'mx2.mailroom.test')[1]).toMatchObject({ value: 'mx2.mailroom.test', status: 'pending' });
    expect(withBounceRecords(checked, 'bounces.example.com', undefined)).toEqual(checked.slice(0, 1));
  });
});
