import type { DomainRecord } from '../entities/domain.entity';
import { DnsResolver } from './dns-resolver';

/**
 * Records for the smtp/outbox transports. DKIM is required: it proves control of the zone and
 * is what receivers check on every message we sign. SPF and DMARC are recommended
 * (`required: false`): the service cannot know the SMTP relay's addresses, and a domain often
 * already has an SPF policy that must be merged by hand, so their status is reported only.
 */
export function ownDkimRecords(domain: string, selector: string, publicKeyBase64: string): DomainRecord[] {
  return [
    { type: 'TXT', name: `${selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${publicKeyBase64}`, required: true, purpose: 'dkim', status: 'pending' },
    { type: 'TXT', name: domain, value: 'v=spf1 a mx ~all', required: false, purpose: 'spf', status: 'pending' },
    { type: 'TXT', name: `_dmarc.${domain}`, value: 'v=DMARC1; p=none;', required: false, purpose: 'dmarc', status: 'pending' },
  ];
}

/**
 * The bounce subdomain's records when `INBOUND_MX_HOST` is set (smtp/outbox transports): its MX
 * brings DSNs and feedback reports for the VERP return path here, its SPF lets receivers check
 * that return path. Recommended (`required: false`), like SES's MAIL FROM records.
 */
export function bounceRecords(bounceDomain: string, mxHost: string): DomainRecord[] {
  return [
    { type: 'MX', name: bounceDomain, value: mxHost, priority: 10, required: false, purpose: 'mail-from', status: 'pending' },
    { type: 'TXT', name: bounceDomain, value: 'v=spf1 a mx ~all', required: false, purpose: 'spf', status: 'pending' },
  ];
}

/**
 * The records with the bounce subdomain's in step with the configuration: added (pending) when
 * `mxHost` is set and missing or pointing elsewhere, dropped when it is unset; others untouched.
 */
export function withBounceRecords(records: DomainRecord[], bounceDomain: string, mxHost: string | undefined): DomainRecord[] {
  const others = records.filter((r) => r.name !== bounceDomain);
  if (!mxHost) return others;
  const current = records.filter((r) => r.name === bounceDomain);
  const wanted = bounceRecords(bounceDomain, mxHost);
  const same = current.length === wanted.length && wanted.every((w) => current.some((c) => c.type === w.type && c.value === w.value));
  return [...others, ...(same ? current : wanted)];
}

/**
 * SES's Easy DKIM CNAMEs (required: SES verifies the identity through them) and the custom
 * MAIL FROM records (recommended: SES falls back to its own MAIL FROM until they resolve).
 */
export function sesRecords(domain: string, region: string, dkimTokens: string[], mailFromDomain: string): DomainRecord[] {
  return [
    ...dkimTokens.map((token): DomainRecord => ({
      type: 'CNAME',
      name: `${token}._domainkey.${domain}`,
      value: `${token}.dkim.amazonses.com`,
      required: true,
      purpose: 'dkim',
      status: 'pending',
    })),
    { type: 'MX', name: mailFromDomain, value: `feedback-smtp.${region}.amazonses.com`, priority: 10, required: false, purpose: 'mail-from', status: 'pending' },
    { type: 'TXT', name: mailFromDomain, value: 'v=spf1 include:amazonses.com ~all', required: false, purpose: 'spf', status: 'pending' },
  ];
}

const normalizeHost = (host: string) => host.toLowerCase().replace(/\.$/, '');
const dkimTags = (txt: string) =>
  new Map(
    txt
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((kv) => kv.length >= 2)
      .map(([k, ...v]) => [k.trim().toLowerCase(), v.join('=').replace(/\s+/g, '')]),
  );

/** Whether the published DNS answers satisfy one record; a failed lookup counts as not yet. */
export async function recordMatches(dns: DnsResolver, record: DomainRecord): Promise<boolean> {
  try {
    switch (record.type) {
      case 'CNAME':
        return (await dns.cname(record.name)).some((target) => normalizeHost(target) === normalizeHost(record.value));
      case 'MX':
        return (await dns.mx(record.name)).some((mx) => normalizeHost(mx.exchange) === normalizeHost(record.value));
      case 'TXT': {
        const texts = await dns.txt(record.name);
        return texts.some((text) => txtMatches(record, text));
      }
    }
  } catch {
    return false;
  }
}

function txtMatches(record: DomainRecord, text: string): boolean {
  const published = text.trim();
  switch (record.purpose) {
    case 'dkim': {
      // Same key is what matters; tag order, spacing and extra tags (t=, h=) are the owner's choice.
      const expected = dkimTags(record.value).get('p');
      return !!expected && dkimTags(published).get('p') === expected;
    }
    case 'spf': {
      // Any SPF policy counts for our own records; SES's MAIL FROM needs its include.
      if (!/^v=spf1(\s|$)/i.test(published)) return false;
      const include = /include:\S+/.exec(record.value)?.[0];
      return !include || published.toLowerCase().split(/\s+/).includes(include.toLowerCase());
    }
    case 'dmarc':
      return /^v=DMARC1\s*(;|$)/i.test(published);
    default:
      return published === record.value;
  }
}
