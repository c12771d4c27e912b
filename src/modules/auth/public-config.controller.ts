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
  /** This build ships the MCP server (`npm run mcp`, a separate process that calls this API). */
  mcp: boolean;
  /** Previews and test sends as a contact (`POST /templates|campaigns/:id/preview|test`) are served. */
  previews: boolean;
}

/** What the dashboard may show: which integrations are on. Never secrets. */
@ApiTags('auth')
@Controller('config')
export class PublicConfigController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  @Public()
  @Get()
  @ApiOperation({ summary: "Get the deployment's public configuration" })
  @ApiJson(200, { type: 'object', properties: { signupEnabled: { type: 'boolean' }, signupDisabled: { type: 'boolean' }, transport: { type: 'string' }, emailTransport: { type: 'string' }, tracking: { type: 'boolean' }, uploads: { type: 'boolean' }, uploadStorage: { type: 'string', enum: ['local', 's3'] }, domainVerification: { type: 'boolean' }, billing: { type: 'boolean' }, oauthProviders: { type: 'array', items: { type: 'string' } }, publicUrl: { type: 'string' }, webhooks: { type: 'boolean', description: 'Event webhooks (/webhooks) are served' }, mcp: { type: 'boolean', description: 'This build ships the MCP server (npm run mcp), which calls this API with a secret key' }, telemetry: { type: 'boolean', description: 'Traces and metrics are exported over OpenTelemetry (OTLP/HTTP)' }, previews: { type: 'boolean', description: 'Previews and test sends as a contact are served' } } }, 'Which features this deployment has on (never secrets)')
  get(): PublicConfigResponse {
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
      previews: true,
    };
  }
}
