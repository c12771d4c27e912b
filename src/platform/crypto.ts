import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const hmacBase64Url = (secret: string, value: string): string => createHmac('sha256', secret).update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * What a stored ciphertext protects: the HKDF `info` of its key, so each purpose has a key of its
 * own derived from APP_SECRET (rotating APP_SECRET makes every stored secret unreadable: keep it
 * stable). Persisted in effect: renaming one makes its ciphertexts unreadable.
 */
export type EncryptionPurpose = 'dkim-private-key' | 'webhook-secret';

const ENCRYPTION_VERSION = 'v1';

function encryptionKey(appSecret: string, purpose: EncryptionPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'mailroom', purpose, 32));
}

/** AES-256-GCM with the purpose's key; stored as `v1:<iv>:<tag>:<ciphertext>` (base64). */
export function encryptSecret(appSecret: string, purpose: EncryptionPurpose, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(appSecret, purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [ENCRYPTION_VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

/** Throws on another purpose's or APP_SECRET's ciphertext, or a tampered one (GCM tag). */
export function decryptSecret(appSecret: string, purpose: EncryptionPurpose, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(':');
  if (version !== ENCRYPTION_VERSION || !iv || !tag || !ciphertext) throw new Error(`Unknown encoding of a stored ${purpose}`);
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(appSecret, purpose), Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
