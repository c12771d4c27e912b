import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Domain, DomainRecord, DomainStatus } from '../entities/domain.entity';

export class DomainRecordResponse {
  @ApiProperty({ description: "DNS record type (TXT, MX, CNAME)", type: String })
  type!: DomainRecord['type'];
  @ApiProperty({ description: 'Name', type: String })
  name!: string;
  @ApiProperty({ description: 'Record value', type: String })
  value!: string;
  @ApiPropertyOptional({ description: 'MX priority', type: Number })
  priority?: number;
  @ApiProperty({ description: 'Whether sending needs this record', type: Boolean })
  required!: boolean;
  @ApiProperty({ description: "What the record is for (e.g. SPF, DKIM, DMARC, MX)", type: String })
  purpose!: DomainRecord['purpose'];
  @ApiProperty({ description: "Record check result", type: String })
  status!: DomainStatus;
}

export class DomainResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Domain name, e.g. example.com', type: String })
  domain!: string;
  @ApiProperty({ description: "Domain verification status", type: String })
  status!: DomainStatus;
  @ApiProperty({ description: 'Whether every required record is verified', type: Boolean })
  verified!: boolean;
  @ApiProperty({ description: "DNS records to publish", type: () => [DomainRecordResponse] })
  records!: DomainRecordResponse[];
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'When the domain was verified', type: String, nullable: true })
  verifiedAt!: string | null;
  @ApiProperty({ description: 'Last DNS check', type: String, nullable: true })
  lastCheckedAt!: string | null;
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
