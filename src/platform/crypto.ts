import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const hmacBase64Url = (secret: string, value: string): string => createHmac('sha256', secret).update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
