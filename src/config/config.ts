import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';

export type Role = 'all' | 'api' | 'worker';
export type EmailTransportKind = 'outbox' | 'smtp' | 'ses';
export type TrackingDefault = 'ENABLED' | 'DISABLED' | 'MARKETING_ONLY';

export interface AppConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Unset: the embedded PGlite database is started and its loopback URL is filled in at boot. */
  databaseUrl?: string;
  /** `EMBEDDED_DB_BUFFERS_MB`: the embedded database's shared_buffers (PostgreSQL's 128 MB default is resident from start). */
  embeddedDbBuffersMb: number;
  /**
   * `EMBEDDED_MAINTENANCE_INTERVAL_MS`: how often the embedded database, which has no autovacuum,
   * looks for tables to vacuum or analyze and GIN pending lists to merge; 0: never (default 30 s).
   */
  embeddedMaintenanceIntervalMs: number;
  redisUrl?: string;
  role: Role;
  /** `PROCESSES`: copies of the service this command starts (node:cluster, one shared port); services mode only. */
  processes: number;
  appSecret: string;
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
  /** Inbound mail and bounces (docs/integrations.md, "Inbound mail and bounces"). */
  inbound: {
    /** `INBOUND_MX_HOST`: the host the bounce subdomains' MX points at; set, outgoing mail carries a VERP return path. */
    mxHost?: string;
    /** `INBOUND_RETENTION_DAYS`: received messages (rows and raw) are kept this long (default 30). */
    retentionDays: number;
    /** `INBOUND_PURGE_INTERVAL_MS`: how often worker processes drop expired messages (default 1 hour; tests use less). */
    purgeIntervalMs: number;
  };
  signupDisabled: boolean;
  bootstrap?: { email: string; password: string };
  rateLimitPerMinute: number;
  idempotencyTtlHours: number;
  webhookAllowPrivate: boolean;
  /** Event webhooks (docs/decisions.md#event-webhooks). */
  webhooks: {
    /** `WEBHOOK_RETRY_SCHEDULE_MS`: delays before attempts 2, 3, … (comma-separated ms; default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
    retryScheduleMs: number[];
    /** `WEBHOOK_AUTO_DISABLE_AFTER_MS`: an endpoint failing without a success this long is disabled FAILING (default 5 days). */
    autoDisableAfterMs: number;
    /** `WEBHOOK_SWEEP_INTERVAL_MS`: how often worker processes look for overdue deliveries and failing endpoints (default 5 s). */
    sweepIntervalMs: number;
    /** `WEBHOOK_SWEEP_GRACE_MS`: how far past its due time a pending delivery must be before the sweep enqueues it again (default 60 s). */
    sweepGraceMs: number;
    /** `WEBHOOK_CONCURRENCY`: requests one worker process has in flight at once (default 64). */
    concurrency: number;
    /** `WEBHOOK_YIELD_MAX_MS`: while the API of its process is busy, deliveries wait, one group going on anyway per this many ms (default 2 s; 0: never waits). */
    yieldMaxMs: number;
  };
  /** `WORKER_NICE`: added to the scheduling priority (nice) of a `ROLE=worker` process at start, so API processes win the CPU (default 10; 0: unchanged). */
  workerNice: number;
  /** `WORKFLOW_CONCURRENCY`: workflow executions one process runs a step of at once (8 with `ROLE=worker`, else 2). */
  workflowConcurrency: number;
  snsCertHosts: string[];
  /** Tests only: lets SNS certificate and SubscribeURL fetches use http on an allowed host. */
  snsCertAllowHttp: boolean;
  stripeSecretKey?: string;
  /** `STRIPE_WEBHOOK_SECRET` (whsec_…): verifies `POST /webhooks/incoming/stripe`. */
  stripeWebhookSecret?: string;
  /** `STRIPE_PRICE_ID`: the price a checkout session subscribes to. */
  stripePriceId?: string;
  /** `STRIPE_API_URL`: another base for Stripe's API (a proxy, or a local fake in tests). */
  stripeApiUrl?: string;
  /** Image uploads go to S3-compatible storage when `S3_BUCKET` is set, else under `$DATA_DIR/uploads`. */
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * `TRUST_PROXY`: whose `X-Forwarded-For` names the client (`req.ip`, the login throttle): a hop
   * count (0, the default: nobody's, the peer is the client) or proxy addresses, CIDR ranges and
   * Express's named ranges (`loopback`, `linklocal`, `uniquelocal`). Express's `trust proxy`.
   */
  trustProxy: number | string[];
  /** `METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** Prefix for Redis keys and BullMQ queues, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  /** `SEGMENT_RECOMPUTE_INTERVAL_MS` (default 5 minutes; tests use less) and `SEGMENT_QUERY_TIMEOUT_MS` (statement_timeout of segment queries). */
  segments: { recomputeIntervalMs: number; queryTimeoutMs: number };
  /**
   * `CAMPAIGN_BATCH_SIZE`: contacts per keyset batch (one INSERT … SELECT + checkpoint); `CAMPAIGN_MAX_QUEUED`: a campaign's emails waiting ahead of the transport at most.
   */
  campaigns: { batchSize: number; maxQueued: number };
  /** `WEB_DIST_DIR`: the built dashboard served under `/app/` (default `dist/web`, written by `npm run build`). */
  webDistDir: string;
  /** OpenTelemetry export over OTLP/HTTP (see `telemetryConfig`); the SDK reads the other `OTEL_*` variables itself. */
  telemetry: TelemetryConfig;
  /** SMTP listeners (docs/smtp.md): the submission relay and inbound mail. A port left unset keeps its listener off. */
  smtp: SmtpConfig;
  /** How long the service waits on a silent PostgreSQL or Redis (docs/operations.md, "When a dependency goes silent"). */
  outage: OutageConfig;
}

export interface OutageConfig {
  /** `REQUEST_TIMEOUT_MS`: an API request not answered by then gets 503 and its database work is abandoned (0: no deadline). */
  requestTimeoutMs: number;
  /** `DATABASE_CONNECT_TIMEOUT_MS`: opening a pooled PostgreSQL connection, or waiting for a free one. */
  databaseConnectTimeoutMs: number;
  /** `REDIS_COMMAND_TIMEOUT_MS`: a command of the request path (rate-limit counters, readiness ping) unanswered by then fails. */
  redisCommandTimeoutMs: number;
  /** `REDIS_SOCKET_TIMEOUT_MS`: a queue connection that has a command waiting and receives nothing for this long is dropped and reopened. */
  redisSocketTimeoutMs: number;
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

export interface TelemetryConfig {
  /** Traces and metrics go out: `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal endpoint, or `OTEL_TRACES_EXPORTER`) is set and `OTEL_SDK_DISABLED` is not true. */
  enabled: boolean;
  /** `OTEL_METRICS_EXPORTER` is not `none`: the `/metrics` series also go out over OTLP. */
  metrics: boolean;
  /** `OTEL_SERVICE_NAME`, default `mailroom`. */
  serviceName: string;
  /** `OTEL_METRIC_EXPORT_INTERVAL` in ms (default 60 s, the standard's). */
  metricExportIntervalMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

/** docs/decisions.md#event-webhooks: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const WEBHOOK_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** `WEBHOOK_RETRY_SCHEDULE_MS`: comma-separated delays in ms (each at most 7 days, 1 to 20 of them). */
function retrySchedule(env: Env): number[] {
  const raw = str(env, 'WEBHOOK_RETRY_SCHEDULE_MS');
  if (raw === undefined) return WEBHOOK_RETRY_SCHEDULE_MS;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d+$/.test(p) || Number(p) > 7 * 86_400_000)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_MS must be 1 to 20 comma-separated delays in milliseconds, each at most 7 days (got "${raw}")`);
  }
  return parts.map(Number);
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

/** A DNS host name (letters, digits, hyphens, dots), lower-cased without a trailing dot. */
function hostName(env: Env, name: string): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (host.length > 253 || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) {
    throw new ConfigError(`${name} must be a host name such as mx.example.com (got "${raw}")`);
  }
  return host;
}

const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `TRUST_PROXY`: a hop count, or comma-separated proxy addresses and ranges (see `AppConfig.trustProxy`). */
function trustProxy(env: Env): number | string[] {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return 0;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 64);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    // Zone ids (fe80::1%eth0) are not addresses Express's proxy-addr can compile.
    const family = address.includes('%') ? 0 : isIP(address);
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!(NAMED_PROXY_RANGES.has(entry) || (family !== 0 && validPrefix && extra === undefined))) {
      throw new ConfigError(
        `TRUST_PROXY must be a hop count (0 to 64) or comma-separated proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal (got "${entry}" in "${raw}")`,
      );
    }
  }
  return entries;
}

/** The value docker/compose.yml once defaulted to: published, so it signs nothing. */
const PUBLISHED_SECRETS = new Set(['change-me-to-at-least-32-random-characters']);

/** Reads `$DATA_DIR/secret`, creating it once with 32 random bytes when absent. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

function s3Config(env: Env): AppConfig['s3'] {
  const bucket = str(env, 'S3_BUCKET');
  if (bucket === undefined) return undefined;
  return {
    bucket,
    region: str(env, 'S3_REGION') ?? 'us-east-1',
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    accessKeyId: str(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

/**
 * Relative values are taken from the working directory like DATA_DIR. The default is found from
 * this file, so it holds from the sources (`src/config`) and the build (`dist/config`) alike.
 */
function webDistDir(env: Env): string {
  const raw = str(env, 'WEB_DIST_DIR');
  if (raw === undefined) return resolve(__dirname, '..', '..', 'dist', 'web');
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}

/**
 * Whether OpenTelemetry is on, decided here so `/config` can report it; the SDK itself reads the
 * standard `OTEL_*` variables (endpoint, headers, service name, sampler, batch sizes).
 */
function telemetryConfig(env: Env): TelemetryConfig {
  const tracesExporter = str(env, 'OTEL_TRACES_EXPORTER');
  const endpoint = str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? str(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? str(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const enabled = !bool(env, 'OTEL_SDK_DISABLED', false) && (endpoint !== undefined || (tracesExporter !== undefined && tracesExporter !== 'none'));
  const protocol = str(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (enabled && protocol !== 'http/json' && protocol !== 'http/protobuf') throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP), got "${protocol}"`);
  return {
    enabled,
    metrics: enabled && str(env, 'OTEL_METRICS_EXPORTER') !== 'none',
    serviceName: str(env, 'OTEL_SERVICE_NAME') ?? 'mailroom',
    metricExportIntervalMs: int(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, 100, 86_400_000),
  };
}

function optionalPort(env: Env, name: string): number | undefined {
  return str(env, name) === undefined ? undefined : int(env, name, 0, 0, 65535);
}

function outageConfig(env: Env, external: boolean): OutageConfig {
  return {
    // The embedded database runs in-process: it cannot go silent, and a deadline would only cut long requests short.
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', external ? 4_000 : 0, 0, 3_600_000),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 600_000),
    redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 1_000, 50, 600_000),
    // Above BullMQ's longest blocking read (10 s), which is a command waiting for data too.
    redisSocketTimeoutMs: int(env, 'REDIS_SOCKET_TIMEOUT_MS', 15_000, 11_000, 600_000),
  };
}

function smtpConfig(env: Env): SmtpConfig {
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

/** Validates the environment once at boot; any problem is one `ConfigError` line naming the variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '0.0.0.0';
  const rawDataDir = str(env, 'DATA_DIR') ?? './data';
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(process.cwd(), rawDataDir);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const transport = oneOf(env, 'EMAIL_TRANSPORT', ['outbox', 'smtp', 'ses'] as const, 'outbox');
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (transport === 'smtp' && !smtpUrl) throw new ConfigError('EMAIL_TRANSPORT=smtp requires SMTP_URL');
  const awsRegion = str(env, 'AWS_REGION');
  if (transport === 'ses' && !awsRegion) throw new ConfigError('EMAIL_TRANSPORT=ses requires AWS_REGION');
  const rate = str(env, 'SEND_RATE_PER_SECOND');
  if (rate !== undefined && !(/^\d+(\.\d+)?$/.test(rate) && Number(rate) > 0)) {
    throw new ConfigError(`SEND_RATE_PER_SECOND must be a positive number (got "${rate}")`);
  }
  const bootstrapEmail = str(env, 'BOOTSTRAP_EMAIL');
  const bootstrapPassword = str(env, 'BOOTSTRAP_PASSWORD');
  if (Boolean(bootstrapEmail) !== Boolean(bootstrapPassword)) {
    throw new ConfigError('BOOTSTRAP_EMAIL and BOOTSTRAP_PASSWORD must be set together');
  }
  if (bootstrapPassword !== undefined && bootstrapPassword.length < 8) {
    throw new ConfigError('BOOTSTRAP_PASSWORD must be at least 8 characters');
  }
  const appSecret = str(env, 'APP_SECRET');
  if (appSecret !== undefined && appSecret.length < 32) {
    throw new ConfigError('APP_SECRET must be at least 32 characters');
  }
  if (appSecret !== undefined && PUBLISHED_SECRETS.has(appSecret)) {
    throw new ConfigError('APP_SECRET is the published example value; set your own, e.g. the output of openssl rand -hex 32');
  }
  const snsHosts = str(env, 'SNS_CERT_HOSTS');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const processes = int(env, 'PROCESSES', 1, 1, 64);
  const metricsToken = str(env, 'METRICS_TOKEN');
  const role = oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all');
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  if (processes > 1 && !databaseUrl) {
    throw new ConfigError('PROCESSES above 1 requires DATABASE_URL (the embedded database lives inside one process)');
  }

  return {
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    embeddedDbBuffersMb: int(env, 'EMBEDDED_DB_BUFFERS_MB', 16, 1, 4096),
    embeddedMaintenanceIntervalMs: int(env, 'EMBEDDED_MAINTENANCE_INTERVAL_MS', 30_000, 0, 86_400_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    role,
    processes,
    appSecret: appSecret ?? loadOrCreateSecret(dataDir),
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
    inbound: {
      mxHost: hostName(env, 'INBOUND_MX_HOST'),
      retentionDays: int(env, 'INBOUND_RETENTION_DAYS', 30, 1, 3650),
      purgeIntervalMs: int(env, 'INBOUND_PURGE_INTERVAL_MS', 3_600_000, 100, 86_400_000),
    },
    signupDisabled: bool(env, 'SIGNUP_DISABLED', false),
    bootstrap: bootstrapEmail && bootstrapPassword ? { email: bootstrapEmail.toLowerCase(), password: bootstrapPassword } : undefined,
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 1000, 1, 10_000_000),
    idempotencyTtlHours: int(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 365),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhooks: {
      retryScheduleMs: retrySchedule(env),
      autoDisableAfterMs: int(env, 'WEBHOOK_AUTO_DISABLE_AFTER_MS', 5 * 86_400_000, 1_000, 365 * 86_400_000),
      sweepIntervalMs: int(env, 'WEBHOOK_SWEEP_INTERVAL_MS', 5_000, 100, 3_600_000),
      sweepGraceMs: int(env, 'WEBHOOK_SWEEP_GRACE_MS', 60_000, 0, 86_400_000),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1, 10_000),
      yieldMaxMs: int(env, 'WEBHOOK_YIELD_MAX_MS', 2_000, 0, 60_000),
    },
    workerNice: int(env, 'WORKER_NICE', 10, 0, 19),
    // A process that also serves the API lets workflow work take less of it.
    workflowConcurrency: int(env, 'WORKFLOW_CONCURRENCY', role === 'worker' ? 8 : 2, 1, 1000),
    snsCertHosts: snsHosts ? snsHosts.split(',').map((h) => h.trim()).filter(Boolean) : ['sns.*.amazonaws.com'],
    snsCertAllowHttp: bool(env, 'SNS_CERT_ALLOW_HTTP', false),
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    stripePriceId: str(env, 'STRIPE_PRICE_ID'),
    stripeApiUrl: url(env, 'STRIPE_API_URL', ['http:', 'https:']),
    s3: s3Config(env),
    trustProxy: trustProxy(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'mailroom',
    metricsToken,
    segments: {
      recomputeIntervalMs: int(env, 'SEGMENT_RECOMPUTE_INTERVAL_MS', 300_000, 100, 86_400_000),
      queryTimeoutMs: int(env, 'SEGMENT_QUERY_TIMEOUT_MS', 30_000, 1, 3_600_000),
    },
    campaigns: {
      batchSize: int(env, 'CAMPAIGN_BATCH_SIZE', 1_000, 1, 100_000),
      maxQueued: int(env, 'CAMPAIGN_MAX_QUEUED', 5_000, 1, 100_000_000),
    },
    webDistDir: webDistDir(env),
    telemetry: telemetryConfig(env),
    smtp: smtpConfig(env),
    outage: outageConfig(env, databaseUrl !== undefined || str(env, 'REDIS_URL') !== undefined),
  };
}
