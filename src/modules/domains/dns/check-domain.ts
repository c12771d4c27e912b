import type { Domain, DomainRecord } from '../entities/domain.entity';
import type { DnsResolver } from './dns-resolver';
import { recordMatches } from './domain-records';

export interface DomainCheck {
  records: DomainRecord[];
  verified: boolean;
}

/** Resolves every record once; the domain is verified when every required record matches. */
export async function checkDomainRecords(dns: DnsResolver, domain: Domain): Promise<DomainCheck> {
  const records = await Promise.all(
    domain.records.map(async (record): Promise<DomainRecord> => ({ ...record, status: (await recordMatches(dns, record)) ? 'verified' : 'pending' })),
  );
  const required = records.filter((r) => r.required);
  return { records, verified: required.length > 0 && required.every((r) => r.status === 'verified') };
}
