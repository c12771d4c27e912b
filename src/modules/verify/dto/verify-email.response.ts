import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
/**
 * Reason codes (a client may switch on them): `invalid_syntax`, `domain_not_found`,
 * `no_mx_records` (neither MX nor A/AAAA: mail cannot be delivered), `null_mx` (RFC 7505:
 * the domain accepts no mail), `mx_fallback_a` (no MX, delivery falls back to A/AAAA),
 * `dns_lookup_failed`, `disposable_domain`, `possible_typo`, `plus_addressed`.
 */
export type VerifyReason =
  | 'invalid_syntax'
  | 'domain_not_found'
  | 'no_mx_records'
  | 'null_mx'
  | 'mx_fallback_a'
  | 'dns_lookup_failed'
  | 'disposable_domain'
  | 'possible_typo'
  | 'plus_addressed';

export class VerifyEmailResult {
  @ApiProperty({ description: 'Email address', type: String })
  email!: string;
  @ApiProperty({ description: 'Whether the address is deliverable as far as can be told', type: Boolean })
  valid!: boolean;
  @ApiProperty({ description: 'Disposable-address provider', type: Boolean })
  isDisposable!: boolean;
  @ApiProperty({ description: 'Looks like a typo of a common domain', type: Boolean })
  isTypo!: boolean;
  @ApiProperty({ description: 'Uses +tag addressing', type: Boolean })
  isPlusAddressed!: boolean;
  @ApiProperty({ description: "Uses +tag addressing (Plunk's name for isPlusAddressed)", type: Boolean })
  isAlias!: boolean;
  @ApiProperty({ description: 'The domain is a free-mail provider (gmail.com, …), from the maintained free-email-domains-list', type: Boolean })
  isPersonalEmail!: boolean;
  @ApiProperty({ description: 'The domain resolves', type: Boolean })
  domainExists!: boolean;
  @ApiProperty({ description: 'The domain has MX records', type: Boolean })
  hasMxRecords!: boolean;
  @ApiProperty({ description: 'The domain has an A or AAAA record', type: Boolean })
  hasWebsite!: boolean;
  @ApiPropertyOptional({ description: 'Corrected address for a likely typo', type: String })
  suggestedEmail?: string;
  @ApiProperty({ description: "Why the address is not (or may not be) valid", type: [String] })
  reasons!: VerifyReason[];
}
