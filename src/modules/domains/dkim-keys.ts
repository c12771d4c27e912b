import { createCipheriv, createDecipheriv, generateKeyPair, hkdfSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

export interface DkimKeyPair {
  privateKeyPem: string;
  /** Base64 SubjectPublicKeyInfo DER: the `p=` tag of the DKIM TXT record. */
  publicKeyBase64: string;
}

/** RSA-2048, generated off the event loop (libuv threadpool). */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyBase64: Buffer.from(publicKey).toString('base64') };
}

const VERSION = 'v1';

/** A dedicated key per purpose: rotating APP_SECRET makes stored DKIM keys unreadable, so keep it stable. */
function encryptionKey(appSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'mailroom', 'dkim-private-key', 32));
}

/** AES-256-GCM; stored as `v1:<iv>:<tag>:<ciphertext>` (base64). */
export function encryptPrivateKey(appSecret: string, pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(appSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

export function decryptPrivateKey(appSecret: string, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(':');
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('Unknown DKIM key encoding');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(appSecret), Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
