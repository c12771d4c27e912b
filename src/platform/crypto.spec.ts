import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from './crypto';

const appSecret = 'a'.repeat(64);

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, with a fresh IV each time', () => {
    const a = encryptSecret(appSecret, 'webhook-secret', 'whsec_abc');
    expect(a).toMatch(/^v1:[^:]+:[^:]+:[^:]+$/);
    expect(encryptSecret(appSecret, 'webhook-secret', 'whsec_abc')).not.toBe(a);
    expect(decryptSecret(appSecret, 'webhook-secret', a)).toBe('whsec_abc');
  });

  it("keeps purposes apart: one purpose's ciphertext does not open with another's key, nor with another APP_SECRET", () => {
    const stored = encryptSecret(appSecret, 'webhook-secret', 'whsec_abc');
    expect(() => decryptSecret(appSecret, 'dkim-private-key', stored)).toThrow();
    expect(() => decryptSecret('b'.repeat(64), 'webhook-secret', stored)).toThrow();
  });

  it('reads DKIM keys stored before the move (HKDF-SHA256, salt "mailroom", info "dkim-private-key")', () => {
    const key = Buffer.from(hkdfSync('sha256', appSecret, 'mailroom', 'dkim-private-key', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update('-----BEGIN PRIVATE KEY-----', 'utf8'), cipher.final()]);
    const stored = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
    expect(decryptSecret(appSecret, 'dkim-private-key', stored)).toBe('-----BEGIN PRIVATE KEY-----');
  });
});
