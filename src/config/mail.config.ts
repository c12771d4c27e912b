// Sending mail: the transport and its pace, the system sender, AWS for SES and its notifications, domain checks.
import { ConfigError, Env, bool, int, oneOf, str, url } from './env';

export type EmailTransportKind = 'outbox' | 'smtp' | 'ses';

export interface MailConfig {
  email: {
    transport: EmailTransportKind;
    smtpUrl?: string;
    sendRatePerSecond?: number;
    systemFrom: string;
    /** Double opt-in confirmation emails one project may send an hour (`DOUBLE_OPT_IN_PER_HOUR`); past it they are skipped (the contact stays pending). */
    doubleOptInPerHour: number;
    /** Pooled SMTP connections per process (`SMTP_POOL_SIZE`). */
    smtpPoolSize: number;
    /** Emails one worker process hands to the transport at once (`SEND_CONCURRENCY`). */
    sendConcurrency: number;
    /** How long a claimed (`sending`) email is held before the sweep may end it `failed` (`SEND_LEASE_SECONDS`). */
    sendLeaseSeconds: number;
    /** How often worker processes look for stranded emails (`EMAIL_SWEEP_INTERVAL_MS`). */
    sweepIntervalMs: number;
    /** How long a `queued` email goes untouched before the sweep re-enqueues it, its job presumed lost (`EMAIL_STRANDED_AFTER_MS`). */
    strandedAfterMs: number;
    /** How often worker processes write double opt-in confirmation emails a crash left owed (`CONFIRMATION_REPAIR_INTERVAL_MS`). */
    confirmationRepairIntervalMs: number;
  };
  aws: {
    region?: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    endpointUrlSes?: string;
  };
  domainVerification: 'dns' | 'off';
  dnsServers: string[];
  snsCertHosts: string[];
  /** Tests only: lets SNS certificate and SubscribeURL fetches use http on an allowed host. */
  snsCertAllowHttp: boolean;
}

export function mailConfig(env: Env): MailConfig {
  const transport = oneOf(env, 'EMAIL_TRANSPORT', ['outbox', 'smtp', 'ses'] as const, 'outbox');
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (transport === 'smtp' && !smtpUrl) throw new ConfigError('EMAIL_TRANSPORT=smtp requires SMTP_URL');
  const awsRegion = str(env, 'AWS_REGION');
  if (transport === 'ses' && !awsRegion) throw new ConfigError('EMAIL_TRANSPORT=ses requires AWS_REGION');
  const rate = str(env, 'SEND_RATE_PER_SECOND');
  if (rate !== undefined && !(/^\d+(\.\d+)?$/.test(rate) && Number(rate) > 0)) {
    throw new ConfigError(`SEND_RATE_PER_SECOND must be a positive number (got "${rate}")`);
  }
  const snsHosts = str(env, 'SNS_CERT_HOSTS');
  return {
    email: {
      transport,
      smtpUrl,
      sendRatePerSecond: rate === undefined ? undefined : Number(rate),
      systemFrom: str(env, 'SYSTEM_FROM') ?? 'Mailroom <no-reply@localhost>',
      doubleOptInPerHour: int(env, 'DOUBLE_OPT_IN_PER_HOUR', 200, 1, 1_000_000),
      smtpPoolSize: int(env, 'SMTP_POOL_SIZE', 10, 1, 200),
      sendConcurrency: int(env, 'SEND_CONCURRENCY', 32, 1, 1000),
      sendLeaseSeconds: int(env, 'SEND_LEASE_SECONDS', 180, 10, 86_400),
      sweepIntervalMs: int(env, 'EMAIL_SWEEP_INTERVAL_MS', 60_000, 1_000, 3_600_000),
      strandedAfterMs: int(env, 'EMAIL_STRANDED_AFTER_MS', 120_000, 1_000, 86_400_000),
      confirmationRepairIntervalMs: int(env, 'CONFIRMATION_REPAIR_INTERVAL_MS', 30_000, 100, 3_600_000),
    },
    aws: {
      region: awsRegion,
      accessKeyId: str(env, 'AWS_ACCESS_KEY_ID'),
      secretAccessKey: str(env, 'AWS_SECRET_ACCESS_KEY'),
      endpointUrlSes: url(env, 'AWS_ENDPOINT_URL_SES', ['http:', 'https:']),
    },
    domainVerification: oneOf(env, 'DOMAIN_VERIFICATION', ['dns', 'off'] as const, transport === 'outbox' ? 'off' : 'dns'),
    dnsServers: dnsServers(env),
    snsCertHosts: snsHosts ? snsHosts.split(',').map((h) => h.trim()).filter(Boolean) : ['sns.*.amazonaws.com'],
    snsCertAllowHttp: bool(env, 'SNS_CERT_ALLOW_HTTP', false),
  };
}

function dnsServers(env: Env): string[] {
  const raw = str(env, 'DNS_SERVERS');
  if (raw === undefined) return [];
  const servers = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of servers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/.test(server)) {
      throw new ConfigError(`DNS_SERVERS entry "${server}" must be ip[:port]`);
    }
  }
  return servers;
}
