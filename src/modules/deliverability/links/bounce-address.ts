import { signToken, verifyToken } from './signed-token';

/** The subdomain of a sending domain that receives bounces (`bounces.example.com`); its MX points at `INBOUND_MX_HOST`. */
export const BOUNCE_SUBDOMAIN = 'bounces';
const LOCAL_PREFIX = 'bounce+';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const bounceDomainOf = (domain: string): string => `${BOUNCE_SUBDOMAIN}.${domain}`;

/**
 * The VERP return path of one email: `bounce+<token>@bounces.<domain>`, the token the email id
 * signed (purpose `bounce`). The id travels as its 16 bytes in base64url so the local part stays
 * within SMTP's 64 characters (7 + 30 + 22).
 */
export function bounceAddress(secret: string, emailId: string, domain: string): string {
  const compact = Buffer.from(emailId.replace(/-/g, ''), 'hex').toString('base64url');
  return `${LOCAL_PREFIX}${signToken(secret, 'bounce', [compact])}@${bounceDomainOf(domain)}`;
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
  const parts = verifyToken(secret, 'bounce', token, 1);
  if (!parts) return null;
  const bytes = Buffer.from(parts[0], 'base64url');
  if (bytes.length !== 16) return null;
  const hex = bytes.toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return UUID.test(id) ? id : null;
}
