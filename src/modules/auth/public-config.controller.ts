import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Public } from './auth.decorators';
import { ApiJson } from '../../platform/http/openapi-responses';

export interface PublicConfigResponse {
  signupEnabled: boolean;
  transport: string;
  /** Open and click tracking are served by this deployment (per project they follow its `tracking` setting). */
  tracking: boolean;
  /** `POST /uploads/image` is available (local disk or S3-compatible storage). */
  uploads: boolean;
  uploadStorage: 'local' | 's3';
  signupDisabled: boolean;
  emailTransport: string;
  domainVerification: boolean;
  billing: boolean;
  oauthProviders: string[];
  publicUrl: string;
  /** Event webhooks (`/webhooks`) are served. */
  webhooks: boolean;
  /** Traces and metrics go out over OpenTelemetry's OTLP (`OTEL_EXPORTER_OTLP_ENDPOINT`); never the endpoint itself. */
  telemetry: boolean;
  /** Double opt-in (project setting `doubleOptIn`) and its hosted confirmation page are served. */
  doubleOptIn: boolean;
  /** This build ships the MCP server (`npm run mcp`, a separate process that calls this API). */
  mcp: boolean;
  /** SMTP listeners (docs/smtp.md): the submission relay (with the ports it listens on) and inbound mail. */
  smtp: { submission: boolean; inbound: boolean; submissionPort: number | null; submissionTlsPort: number | null };
  /** Bounces and complaints come back over SMTP to VERP return paths (`INBOUND_MX_HOST` set, transport not SES). */
  verpBounces: boolean;
  /** Topics and snooze (`/topics`, contacts' `topics` and `snoozedUntil`) are served. */
  topics: boolean;
  /** Previews and test sends as a contact (`POST /templates|campaigns/:id/preview|test`) are served. */
  previews: boolean;
  /** The audit log (`GET /audit-log`) is served and recorded. */
  auditLog: boolean;
  /** Users may delete their own account (`DELETE /users/@me`). */
  accountDeletion: boolean;
}

/** What the dashboard may show: which integrations are on. Never secrets. */
@ApiTags('auth')
@Controller('config')
export class PublicConfigController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  @Public()
  @Get()
  @ApiOperation({ summary: "Get the deployment's public configuration" })
  @ApiJson(200, { type: 'object', properties: { signupEnabled: { type: 'boolean' }, signupDisabled: { type: 'boolean' }, transport: { type: 'string' }, emailTransport: { type: 'string' }, tracking: { type: 'boolean' }, uploads: { type: 'boolean' }, uploadStorage: { type: 'string', enum: ['local', 's3'] }, domainVerification: { type: 'boolean' }, billing: { type: 'boolean' }, oauthProviders: { type: 'array', items: { type: 'string' } }, publicUrl: { type: 'string' }, webhooks: { type: 'boolean', description: 'Event webhooks (/webhooks) are served' }, mcp: { type: 'boolean', description: 'This build ships the MCP server (npm run mcp), which calls this API with a secret key' }, telemetry: { type: 'boolean', description: 'Traces and metrics are exported over OpenTelemetry (OTLP/HTTP)' }, smtp: { type: 'object', description: 'SMTP listeners: the submission relay (STARTTLS and implicit-TLS ports, null when off) and inbound mail', required: ['submission', 'inbound', 'submissionPort', 'submissionTlsPort'], properties: { submission: { type: 'boolean' }, inbound: { type: 'boolean' }, submissionPort: { type: 'integer', nullable: true }, submissionTlsPort: { type: 'integer', nullable: true } } }, verpBounces: { type: 'boolean', description: 'Outgoing mail carries a VERP return path whose bounces and complaints come back to the inbound listener (INBOUND_MX_HOST set)' }, topics: { type: 'boolean', description: 'Topics and snooze (/topics; contacts\' topics and snoozedUntil) are served' }, doubleOptIn: { type: 'boolean', description: 'Double opt-in (the project setting doubleOptIn) and its confirmation page are served' }, previews: { type: 'boolean', description: 'Previews and test sends as a contact are served' }, auditLog: { type: 'boolean', description: 'The audit log (GET /audit-log) is served and recorded' }, accountDeletion: { type: 'boolean', description: 'Users may delete their own account (DELETE /users/@me)' } } }, 'Which features this deployment has on (never secrets)')
  get(): PublicConfigResponse {
    const smtp = this.config.smtp;
    return {
      signupEnabled: !this.config.signupDisabled,
      transport: this.config.email.transport,
      tracking: true,
      uploads: true,
      uploadStorage: this.config.s3 ? 's3' : 'local',
      signupDisabled: this.config.signupDisabled,
      emailTransport: this.config.email.transport,
      domainVerification: this.config.domainVerification === 'dns',
      billing: Boolean(this.config.stripeSecretKey),
      oauthProviders: [],
      publicUrl: this.config.publicUrl,
      webhooks: true,
      telemetry: this.config.telemetry.enabled,
      mcp: true,
      smtp: {
        submission: smtp.submissionPort !== undefined || smtp.submissionTlsPort !== undefined,
        inbound: smtp.inboundPort !== undefined,
        submissionPort: smtp.submissionPort ?? null,
        submissionTlsPort: smtp.submissionTlsPort ?? null,
      },
      verpBounces: Boolean(this.config.inbound.mxHost) && this.config.email.transport !== 'ses',
      doubleOptIn: true,
      topics: true,
      previews: true,
      auditLog: true,
      accountDeletion: true,
    };
  }
}
