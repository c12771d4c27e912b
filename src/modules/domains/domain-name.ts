import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Lowercase ASCII (punycode for IDNs) form of a sender domain, or null when it is not a
 * public-looking host name: at least two labels, letters in the last one, no IP literals.
 */
export function normalizeDomainName(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed || trimmed.length > 253 || /[\s@/:\\]/.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  const tld = labels[labels.length - 1];
  if (!/^[a-z]/.test(tld) || /^xn--$/.test(tld)) return null;
  return ascii;
}

/** `a.b.example.com` → `['a.b.example.com', 'b.example.com', 'example.com']` (never the bare TLD). */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** The domain part of an address, normalized; null when there is none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  return normalizeDomainName(email.slice(at + 1).replace(/>\s*$/, ''));
}
