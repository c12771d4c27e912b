import { TestDnsServer } from './dns-server';
import { Session, useFixture, useSession } from './session';
import { SmtpReceiver } from './smtp-receiver';

/**
 * Fixtures of the current describe block: a DNS zone, an SMTP receiver that verifies DKIM through
 * it, and a session sending through that receiver with DNS domain verification (`env` adds
 * variables).
 */
export function useSmtpDnsSession(env: Record<string, string> = {}): { dns: TestDnsServer; smtp: SmtpReceiver; s: Session } {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const smtp = useFixture(() => SmtpReceiver.start({ dkimResolver: dns.resolver() as never }), (r) => r.close());
  const s = useSession(() => ({ ...dns.env(), EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'dns', ...env }));
  return { dns, smtp, s };
}
