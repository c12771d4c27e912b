// The validated configuration: one loader per namespace, composed once at boot into `AppConfig`.
import { AuthConfig, authConfig } from './auth.config';
import { DatabaseConfig, databaseConfig } from './database.config';
import { Env } from './env';
import { HttpConfig, httpConfig } from './http.config';
import { IntegrationsConfig, integrationsConfig } from './integrations.config';
import { MailConfig, mailConfig } from './mail.config';
import { ServerConfig, serverConfig } from './server.config';
import { InboundConfig, SmtpConfig, inboundConfig, smtpConfig } from './smtp.config';
import { TelemetryConfig, telemetryConfig } from './telemetry.config';
import { WebhooksConfig, webhooksConfig } from './webhooks.config';
import { WorkConfig, workConfig } from './work.config';

export { ConfigError } from './env';
export type { OutageConfig } from './database.config';
export type { EmailTransportKind } from './mail.config';
export type { Role } from './server.config';
export type { InboundSmtpLimits, SmtpConfig } from './smtp.config';
export type { TelemetryConfig } from './telemetry.config';

export interface AppConfig extends ServerConfig, DatabaseConfig, MailConfig, AuthConfig, HttpConfig, WebhooksConfig, WorkConfig, IntegrationsConfig {
  /** Inbound mail and bounces (docs/integrations.md, "Inbound mail and bounces"). */
  inbound: InboundConfig;
  /** OpenTelemetry export over OTLP/HTTP (see `telemetryConfig`); the SDK reads the other `OTEL_*` variables itself. */
  telemetry: TelemetryConfig;
  /** SMTP listeners (docs/smtp.md): the submission relay and inbound mail. A port left unset keeps its listener off. */
  smtp: SmtpConfig;
}

/** Validates the environment once at boot; any problem is one `ConfigError` line naming the variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const server = serverConfig(env);
  return {
    ...server,
    ...mailConfig(env),
    ...authConfig(env, server.dataDir),
    ...databaseConfig(env, server.processes),
    ...httpConfig(env),
    ...webhooksConfig(env),
    ...workConfig(env, server.role),
    ...integrationsConfig(env),
    inbound: inboundConfig(env),
    telemetry: telemetryConfig(env),
    smtp: smtpConfig(env),
  };
}
