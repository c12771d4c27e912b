// Mail coming in: the SMTP listeners (submission relay and inbound MX), their limits, and how long received mail is kept.
import { resolve } from 'node:path';
import { ConfigError, Env, bool, hostName, int, optionalPort, str } from './env';

export interface InboundSmtpLimits {
  /** `SMTP_INBOUND_MAX_MESSAGE_BYTES`: the largest received message (default 25 MB). */
  maxMessageBytes: number;
  /** `SMTP_INBOUND_MAX_RECIPIENTS`: RCPT TO per transaction (default 100, the least RFC 5321 lets a server take). */
  maxRecipients: number;
  /** `SMTP_INBOUND_PER_SENDER_PER_MINUTE`: messages a minute from one MAIL FROM address (default 20). */
  perSenderPerMinute: number;
  /** `SMTP_INBOUND_PER_CLIENT_PER_MINUTE`: messages a minute from one client IP address (default 60). */
  perClientPerMinute: number;
}

export interface SmtpConfig {
  /** `SMTP_SUBMISSION_PORT`: submission with STARTTLS (production 587). 0 takes a free port (tests). */
  submissionPort?: number;
  /** `SMTP_SUBMISSION_TLS_PORT`: submission over implicit TLS (production 465). */
  submissionTlsPort?: number;
  /** `SMTP_INBOUND_PORT`: inbound mail, the MX (production 25). */
  inboundPort?: number;
  /** `SMTP_TLS_CERT_FILE` + `SMTP_TLS_KEY_FILE` (PEM, re-read when they change); unset: a self-signed pair in `$DATA_DIR`. */
  tls?: { certFile: string; keyFile: string };
  /** `SMTP_ALLOW_INSECURE_AUTH`: AUTH accepted before STARTTLS (otherwise 530 5.7.0). */
  allowInsecureAuth: boolean;
  /** `SMTP_MAX_RECIPIENTS`: envelope recipients of one submitted message (default 50). */
  maxRecipients: number;
  /** `SMTP_IDLE_TIMEOUT_MS`: a session that sends nothing this long while we wait for it is closed (default 60 s). */
  idleTimeoutMs: number;
  /** `SMTP_SESSION_TIMEOUT_MS`: the longest one connection may stay open, however busy (default 30 minutes): a client trickling bytes cannot hold a slot forever. */
  sessionTimeoutMs: number;
  /** Limits of the MX (SMTP_INBOUND_PORT); each refusal is temporary (4xx), so a real sender retries later. */
  inbound: InboundSmtpLimits;
}

/** Inbound mail and bounces (docs/integrations.md, "Inbound mail and bounces"). */
export interface InboundConfig {
  /** `INBOUND_MX_HOST`: the host the bounce subdomains' MX points at; set, outgoing mail carries a VERP return path. */
  mxHost?: string;
}

export function inboundConfig(env: Env): InboundConfig {
  return {
    mxHost: hostName(env, 'INBOUND_MX_HOST'),
  };
}

export function smtpConfig(env: Env): SmtpConfig {
  const certFile = str(env, 'SMTP_TLS_CERT_FILE');
  const keyFile = str(env, 'SMTP_TLS_KEY_FILE');
  if (Boolean(certFile) !== Boolean(keyFile)) throw new ConfigError('SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE must be set together');
  return {
    submissionPort: optionalPort(env, 'SMTP_SUBMISSION_PORT'),
    submissionTlsPort: optionalPort(env, 'SMTP_SUBMISSION_TLS_PORT'),
    inboundPort: optionalPort(env, 'SMTP_INBOUND_PORT'),
    tls: certFile && keyFile ? { certFile: resolve(process.cwd(), certFile), keyFile: resolve(process.cwd(), keyFile) } : undefined,
    allowInsecureAuth: bool(env, 'SMTP_ALLOW_INSECURE_AUTH', false),
    maxRecipients: int(env, 'SMTP_MAX_RECIPIENTS', 50, 1, 10_000),
    idleTimeoutMs: int(env, 'SMTP_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
    sessionTimeoutMs: int(env, 'SMTP_SESSION_TIMEOUT_MS', 1_800_000, 100, 86_400_000),
    inbound: {
      maxMessageBytes: int(env, 'SMTP_INBOUND_MAX_MESSAGE_BYTES', 25 * 1024 * 1024, 1024, 40 * 1024 * 1024),
      maxRecipients: int(env, 'SMTP_INBOUND_MAX_RECIPIENTS', 100, 1, 1_000),
      perSenderPerMinute: int(env, 'SMTP_INBOUND_PER_SENDER_PER_MINUTE', 20, 1, 100_000),
      perClientPerMinute: int(env, 'SMTP_INBOUND_PER_CLIENT_PER_MINUTE', 60, 1, 100_000),
    },
  };
}
