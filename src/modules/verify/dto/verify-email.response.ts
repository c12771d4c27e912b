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

export interface VerifyEmailResult {
  email: string;
  valid: boolean;
  isDisposable: boolean;
  isTypo: boolean;
  isPlusAddressed: boolean;
  domainExists: boolean;
  hasMxRecords: boolean;
  suggestedEmail?: string;
  reasons: VerifyReason[];
}
