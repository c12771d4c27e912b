import { X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from '../support/sns';

describe('test SNS certificate', () => {
  it('is valid DER every time, whatever its random serial number', () => {
    // A serial starting with a zero byte once made an invalid certificate (1 run in ~500).
    for (let i = 0; i < 600; i++) {
      expect(new X509Certificate(selfSignedCertificate().pem).subject).toContain('sns.test.amazonaws.com');
    }
  });
});
