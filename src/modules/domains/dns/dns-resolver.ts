import { Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import type { MxRecord } from 'node:dns';
import { InjectConfig } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config';

/** Answers that mean "the name or the record type does not exist", as opposed to a failed lookup. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

export class DnsLookupError extends Error {
  constructor(readonly code: string, name: string, type: string) {
    super(`DNS ${type} lookup of ${name} failed (${code})`);
  }
}

/**
 * DNS through the configured resolvers (`DNS_SERVERS`, else the system's). Absent names and
 * types resolve to `[]`; timeouts and server failures throw `DnsLookupError`.
 */
@Injectable()
export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(@InjectConfig() config: AppConfig) {
    this.resolver = new Resolver({ timeout: 2_000, tries: 2 });
    if (config.dnsServers.length > 0) this.resolver.setServers(config.dnsServers);
  }

  /** TXT strings with their character-string chunks joined, as DKIM/SPF/DMARC read them. */
  txt(name: string): Promise<string[]> {
    return this.run(name, 'TXT', () => this.resolver.resolveTxt(name).then((rows) => rows.map((chunks) => chunks.join(''))));
  }

  cname(name: string): Promise<string[]> {
    return this.run(name, 'CNAME', () => this.resolver.resolveCname(name));
  }

  mx(name: string): Promise<MxRecord[]> {
    return this.run(name, 'MX', () => this.resolver.resolveMx(name));
  }

  /** MX answers plus whether the name exists at all (NXDOMAIN versus a name without MX records). */
  async mxAndExistence(name: string): Promise<{ exists: boolean; records: MxRecord[] }> {
    try {
      return { exists: true, records: await this.resolver.resolveMx(name) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (code === 'ENODATA') return { exists: true, records: [] };
      if (ABSENT.has(code)) return { exists: false, records: [] };
      throw new DnsLookupError(code, name, 'MX');
    }
  }

  a(name: string): Promise<string[]> {
    return this.run(name, 'A', () => this.resolver.resolve4(name));
  }

  aaaa(name: string): Promise<string[]> {
    return this.run(name, 'AAAA', () => this.resolver.resolve6(name));
  }

  /**
   * `dns.promises.resolve(name, rrtype)` through the configured resolvers, errors as Node gives
   * them (their `code` tells an absent name from a failure): the shape mailauth takes.
   */
  resolve(name: string, rrtype: string): Promise<string[][] | string[]> {
    return this.resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
  }

  private async run<T>(name: string, type: string, lookup: () => Promise<T[]>): Promise<T[]> {
    try {
      return await lookup();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (ABSENT.has(code)) return [];
      throw new DnsLookupError(code, name, type);
    }
  }
}
