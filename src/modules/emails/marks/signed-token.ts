import { createHmac } from 'node:crypto';
import { hmacBase64Url, safeEqual } from '../../../platform/crypto';

/** 22 base64url characters = 132 bits of HMAC-SHA256; the signature is the token's fixed-length tail. */
const SIGNATURE_LENGTH = 22;

/** Purposes separate the key space: an open-pixel token can never pass as a click or recipient token. */
export type TokenPurpose = 'open' | 'click' | 'recipient' | 'bounce' | 'topic' | 'confirm';

function signature(secret: string, purpose: TokenPurpose, payload: string): string {
  return hmacBase64Url(secret, `mailroom:${purpose}:${payload}`).slice(0, SIGNATURE_LENGTH);
}

/**
 * Signs `parts` (no expiry) into a URL-safe token: base64url(parts joined by LF) + signature.
 * Parts must not contain a line feed.
 */
export function signToken(secret: string, purpose: TokenPurpose, parts: string[]): string {
  const payload = Buffer.from(parts.join('\n'), 'utf8').toString('base64url');
  return payload + signature(secret, purpose, payload);
}

/** The signed parts, or null for anything tampered, truncated or signed for another purpose or secret. */
export function verifyToken(secret: string, purpose: TokenPurpose, token: string, partCount: number): string[] | null {
  if (typeof token !== 'string' || token.length <= SIGNATURE_LENGTH || token.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const payload = token.slice(0, -SIGNATURE_LENGTH);
  if (!safeEqual(token.slice(-SIGNATURE_LENGTH), signature(secret, purpose, payload))) return null;
  const parts = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  return parts.length === partCount ? parts : null;
}

/** 24 hex characters = 96 bits of HMAC-SHA256: the tail of a case-insensitive token. */
const HEX_SIGNATURE_LENGTH = 24;

function hexSignature(secret: string, purpose: TokenPurpose, payload: string): string {
  return createHmac('sha256', secret).update(`mailroom:${purpose}:hex:${payload}`).digest('hex').slice(0, HEX_SIGNATURE_LENGTH);
}

/**
 * The case-insensitive form, for places that may change case (an email address's local part:
 * some servers lower-case the return path they bounce to): a lower-case hex payload + hex signature.
 */
export function signHexToken(secret: string, purpose: TokenPurpose, hexPayload: string): string {
  const payload = hexPayload.toLowerCase();
  return payload + hexSignature(secret, purpose, payload);
}

/** The hex payload, or null for anything tampered, truncated or signed for another purpose or secret; any case verifies. */
export function verifyHexToken(secret: string, purpose: TokenPurpose, token: string): string | null {
  if (typeof token !== 'string' || token.length <= HEX_SIGNATURE_LENGTH || token.length > 512 || !/^[0-9a-f]+$/i.test(token)) return null;
  const lower = token.toLowerCase();
  const payload = lower.slice(0, -HEX_SIGNATURE_LENGTH);
  return safeEqual(lower.slice(-HEX_SIGNATURE_LENGTH), hexSignature(secret, purpose, payload)) ? payload : null;
}
