import { BOUNCE_SUBDOMAIN, bounceDomainOf } from '../../domains';
import { signHexToken, verifyHexToken } from './signed-token';

const LOCAL_PREFIX = 'bounce+';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The VERP return path of one email: `bounce+<token>@bounces.<domain>`, the token the email id
 * signed (purpose `bounce`) in the case-insensitive hex form, since servers may lower-case the
 * address they bounce to. The id travels as 32 hex digits, so the local part stays within
 * SMTP's 64 characters (7 + 32 + 24).
 */
export function bounceAddress(secret: string, emailId: string, domain: string): string {
  return `${LOCAL_PREFIX}${signHexToken(secret, 'bounce', emailId.replace(/-/g, ''))}@${bounceDomainOf(domain)}`;
}

/** Whether the address is of the bounce shape (whatever its token): such mail is a report, never `email.received`. */
export function isBounceAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  return at > 0 && address.slice(0, at).toLowerCase().startsWith(LOCAL_PREFIX) && address.slice(at + 1).toLowerCase().startsWith(`${BOUNCE_SUBDOMAIN}.`);
}

/** The email id a bounce address was signed for, or null when it is not one or its token does not verify. */
export function emailIdOfBounceAddress(secret: string, address: string): string | null {
  if (!isBounceAddress(address)) return null;
  const token = address.slice(LOCAL_PREFIX.length, address.lastIndexOf('@'));
  const hex = verifyHexToken(secret, 'bounce', token);
  if (!hex || hex.length !== 32) return null;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return UUID.test(id) ? id : null;
}
