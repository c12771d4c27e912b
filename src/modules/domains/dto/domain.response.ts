import type { Domain, DomainRecord, DomainStatus } from '../entities/domain.entity';

export interface DomainRecordResponse {
  type: DomainRecord['type'];
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  purpose: DomainRecord['purpose'];
  status: DomainStatus;
}

export interface DomainResponse {
  id: string;
  domain: string;
  status: DomainStatus;
  verified: boolean;
  records: DomainRecordResponse[];
  createdAt: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
}

/** `verificationOff`: DOMAIN_VERIFICATION=off shows every domain as verified; record statuses stay what DNS said. */
export function toDomainResponse(domain: Domain, verificationOff: boolean): DomainResponse {
  const status: DomainStatus = verificationOff ? 'verified' : domain.status;
  return {
    id: domain.id,
    domain: domain.domain,
    status,
    verified: status === 'verified',
    records: domain.records.map((r) => ({
      type: r.type,
      name: r.name,
      value: r.value,
      ...(r.priority !== undefined ? { priority: r.priority } : {}),
      required: r.required,
      purpose: r.purpose,
      status: r.status,
    })),
    createdAt: domain.createdAt.toISOString(),
    verifiedAt: (domain.verifiedAt ?? (verificationOff ? domain.createdAt : null))?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
  };
}
