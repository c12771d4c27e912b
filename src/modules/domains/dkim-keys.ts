import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { decryptSecret, encryptSecret } from '../../platform/crypto';

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

/** AES-256-GCM under the DKIM purpose's key (platform/crypto.ts); stored as `v1:<iv>:<tag>:<ciphertext>`. */
export const encryptPrivateKey = (appSecret: string, pem: string): string => encryptSecret(appSecret, 'dkim-private-key', pem);

export const decryptPrivateKey = (appSecret: string, stored: string): string => decryptSecret(appSecret, 'dkim-private-key', stored);
