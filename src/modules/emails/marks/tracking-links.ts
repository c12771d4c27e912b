import { signToken, verifyToken } from './signed-token';

/** Paths served by this module; links under them are never wrapped for click tracking. */
export const OWN_PATH_PREFIXES = ['/t/', '/u/', '/s/', '/m/'];

export const openPixelPath = (secret: string, emailId: string): string => `/t/o/${signToken(secret, 'open', [emailId])}.gif`;

export const clickPath = (secret: string, emailId: string, url: string): string => `/t/c/${signToken(secret, 'click', [emailId, url])}`;

export function readOpenToken(secret: string, file: string): { emailId: string } | null {
  if (!file.endsWith('.gif')) return null;
  const parts = verifyToken(secret, 'open', file.slice(0, -4), 1);
  return parts ? { emailId: parts[0] } : null;
}

/** The signed target, only when it is still an absolute http(s) URL: never an open redirect. */
export function readClickToken(secret: string, token: string): { emailId: string; url: string } | null {
  const parts = verifyToken(secret, 'click', token, 2);
  if (!parts) return null;
  try {
    const url = new URL(parts[1]);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  } catch {
    return null;
  }
  return { emailId: parts[0], url: parts[1] };
}
