import { Injectable } from '@nestjs/common';
import { DnsResolver, normalizeDomainName } from '../domains';
import { isDisposableDomain } from './disposable-domains';
import { isFreeEmailDomain } from './free-email-domains';
import type { VerifyEmailResult, VerifyReason } from './dto/verify-email.response';
import { suggestDomain } from './email-typos';

/** RFC 5322 dot-atom local part (quoted local parts are legal but never worth accepting for mailing). */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;

interface Routing {
  domainExists: boolean;
  hasMxRecords: boolean;
  deliverable: boolean;
  reasons: VerifyReason[];
}

/** A or AAAA answers of a domain; `failed` when a lookup neither answered nor denied the name. */
interface Addresses {
  count: number;
  failed: boolean;
}

const LOOKUP_FAILED: Routing = { domainExists: false, hasMxRecords: false, deliverable: false, reasons: ['dns_lookup_failed'] };

@Injectable()
export class VerifyService {
  constructor(private readonly dns: DnsResolver) {}

  /**
   * `valid` means: well-formed, the domain can receive mail (MX, or A/AAAA per RFC 5321's implicit MX),
   * and it is not a disposable provider. Typos and plus-addressing are reported, not judged; so are
   * Plunk's `isAlias` (plus-addressing), `isPersonalEmail` (a free-mail provider) and `hasWebsite`
   * (the domain has an A or AAAA record).
   */
  async verify(input: string): Promise<VerifyEmailResult> {
    const email = input.trim();
    const at = email.lastIndexOf('@');
    const local = at > 0 ? email.slice(0, at) : '';
    const domain = at > 0 ? normalizeDomainName(email.slice(at + 1)) : null;
    const syntaxOk = !!domain && local.length <= 64 && LOCAL_PART.test(local) && local.length + 1 + domain.length <= 254;
    const isPlusAddressed = syntaxOk && /^[^+]+\+.+$/.test(local);

    if (!syntaxOk || !domain) {
      return {
        email,
        valid: false,
        isDisposable: false,
        isTypo: false,
        isPlusAddressed: false,
        isAlias: false,
        isPersonalEmail: false,
        domainExists: false,
        hasMxRecords: false,
        hasWebsite: false,
        reasons: ['invalid_syntax'],
      };
    }
    const normalized = `${local}@${domain}`;
    const suggestion = suggestDomain(domain);
    const isDisposable = isDisposableDomain(domain);
    // The A/AAAA lookups run beside the MX one: they answer hasWebsite, and the delivery fallback when there is no MX.
    const addresses = this.addresses(domain);
    const routing = await this.routing(domain, addresses);
    const { count: websiteAddresses } = await addresses;
    const reasons: VerifyReason[] = [...routing.reasons];
    if (isDisposable) reasons.push('disposable_domain');
    if (suggestion) reasons.push('possible_typo');
    if (isPlusAddressed) reasons.push('plus_addressed');
    return {
      email: normalized,
      valid: routing.deliverable && !isDisposable,
      isDisposable,
      isTypo: !!suggestion,
      isPlusAddressed,
      isAlias: isPlusAddressed,
      isPersonalEmail: isFreeEmailDomain(domain),
      domainExists: routing.domainExists,
      hasMxRecords: routing.hasMxRecords,
      hasWebsite: websiteAddresses > 0,
      ...(suggestion ? { suggestedEmail: `${local}@${suggestion}` } : {}),
      reasons,
    };
  }

  private async addresses(domain: string): Promise<Addresses> {
    const [a, aaaa] = await Promise.allSettled([this.dns.a(domain), this.dns.aaaa(domain)]);
    const count = (a.status === 'fulfilled' ? a.value.length : 0) + (aaaa.status === 'fulfilled' ? aaaa.value.length : 0);
    return { count, failed: a.status === 'rejected' || aaaa.status === 'rejected' };
  }

  private async routing(domain: string, addresses: Promise<Addresses>): Promise<Routing> {
    try {
      const mx = await this.dns.mxAndExistence(domain);
      if (!mx.exists) return { domainExists: false, hasMxRecords: false, deliverable: false, reasons: ['domain_not_found'] };
      if (mx.records.length > 0) {
        const nullMx = mx.records.length === 1 && mx.records[0].exchange.replace(/\.$/, '') === '';
        return nullMx
          ? { domainExists: true, hasMxRecords: true, deliverable: false, reasons: ['null_mx'] }
          : { domainExists: true, hasMxRecords: true, deliverable: true, reasons: [] };
      }
      const { count, failed } = await addresses;
      if (count > 0) return { domainExists: true, hasMxRecords: false, deliverable: true, reasons: ['mx_fallback_a'] };
      if (failed) return LOOKUP_FAILED;
      return { domainExists: true, hasMxRecords: false, deliverable: false, reasons: ['no_mx_records'] };
    } catch {
      return LOOKUP_FAILED;
    }
  }
}
