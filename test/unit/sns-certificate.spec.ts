import { createPublicKey, X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from '../support/sns';

describe('test SNS certificate (checked-in fixture)', () => {
  it('parses, names sns.test.amazonaws.com, is self-signed by its key and valid for decades', () => {
    const { pem, privateKey } = selfSignedCertificate();
    const cert = new X509Certificate(pem);
    expect(cert.subject).toContain('sns.test.amazonaws.com');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }));
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now() + 50 * 365 * 86_400_000);
  });
});
