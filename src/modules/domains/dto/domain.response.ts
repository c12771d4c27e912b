import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Domain, DomainRecord, DomainStatus } from '../entities/domain.entity';
import type { WarmupStatusRow } from '../domains.rows';

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

export class WarmupDayResponse {
  @ApiProperty({ description: 'Day of the warm-up (0: the day it was turned on)', type: Number })
  day!: number;
  @ApiProperty({ description: 'UTC date (YYYY-MM-DD)', type: String })
  date!: string;
  @ApiProperty({ description: 'Campaign and workflow emails the day allows', type: Number })
  cap!: number;
}

/** The stored settings and, while enabled, where the warm-up stands today (UTC). */
export class DomainWarmupResponse {
  @ApiProperty({ description: 'Whether the daily caps apply', type: Boolean })
  enabled!: boolean;
  @ApiProperty({ description: 'Cap of day 0', type: Number })
  startPerDay!: number;
  @ApiProperty({ description: 'Growth of the cap per day, in percent', type: Number })
  growthPercent!: number;
  @ApiProperty({ description: 'Ceiling of the daily cap; null: none', type: Number, nullable: true })
  maxPerDay!: number | null;
  @ApiProperty({ description: 'Day of the warm-up today (0 the first day); null while disabled', type: Number, nullable: true })
  day!: number | null;
  @ApiProperty({ description: "Today's cap; null while disabled", type: Number, nullable: true })
  capToday!: number | null;
  @ApiProperty({ description: 'Emails from the domain counted today (every kind, transactional included); null while disabled', type: Number, nullable: true })
  sentToday!: number | null;
  @ApiProperty({ description: 'Start (UTC midnight) of the first day whose cap reaches maxPerDay; null without maxPerDay or while disabled', type: String, nullable: true })
  completeAt!: string | null;
  @ApiProperty({ description: 'The caps of today and the 13 days after (while disabled: the schedule if it were turned on today)', type: () => [WarmupDayResponse] })
  schedule!: WarmupDayResponse[];
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
  @ApiProperty({ description: 'Warm-up: daily caps for campaign and workflow mail (docs/delivery-control.md)', type: () => DomainWarmupResponse })
  warmup!: DomainWarmupResponse;
}

/** `verificationOff`: DOMAIN_VERIFICATION=off shows every domain as verified; record statuses stay what DNS said. */
export function toDomainResponse(domain: Domain, verificationOff: boolean, warmup: WarmupStatusRow | undefined): DomainResponse {
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
    warmup: {
      enabled: domain.warmupEnabled,
      startPerDay: domain.warmupStartPerDay,
      growthPercent: domain.warmupGrowthPercent,
      maxPerDay: domain.warmupMaxPerDay,
      day: warmup?.day ?? null,
      capToday: warmup?.cap_today ?? null,
      sentToday: warmup?.sent_today ?? null,
      completeAt: warmup?.complete_at ? new Date(warmup.complete_at).toISOString() : null,
      schedule: warmup?.schedule ?? [],
    },
  };
}
