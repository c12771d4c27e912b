import type { AppConfig } from '../../../config/config';
import { SnsCertificates } from './sns-certificates';

const withConfig = (snsCertHosts: string[], snsCertAllowHttp: boolean) => new SnsCertificates({ snsCertHosts, snsCertAllowHttp } as AppConfig);

describe('SnsCertificates.allowedUrl', () => {
  it('accepts https on an allowed host only', () => {
    const certs = withConfig(['sns.*.amazonaws.com'], false);
    expect(certs.allowedUrl('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem')).not.toBeNull();
    expect(certs.allowedUrl('http://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem')).toBeNull();
    expect(certs.allowedUrl('https://sns.us-east-1.amazonaws.com.evil.example/x.pem')).toBeNull();
    expect(certs.allowedUrl('https://evil.example/sns.us-east-1.amazonaws.com/x.pem')).toBeNull();
    expect(certs.allowedUrl('https://user:pw@sns.us-east-1.amazonaws.com/x.pem')).toBeNull();
    expect(certs.allowedUrl('not a url')).toBeNull();
    expect(certs.allowedUrl('file:///etc/passwd')).toBeNull();
  });

  it('allows http only when configured (tests)', () => {
    const certs = withConfig(['127.0.0.1'], true);
    expect(certs.allowedUrl('http://127.0.0.1:4567/cert.pem')).not.toBeNull();
    expect(certs.allowedUrl('http://localhost:4567/cert.pem')).toBeNull();
  });
});
