import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, Reflector } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { AccessGuard, AuthModule } from './modules/auth';
import { AuditModule } from './modules/audit';
import { ActivityModule } from './modules/activity';
import { UploadsModule } from './modules/uploads';
import { BillingModule } from './modules/billing';
import { CampaignsModule } from './modules/campaigns';
import { ContactsModule, TrackModule } from './modules/contacts';
import { DomainsModule } from './modules/domains';
import { DeliverabilityModule } from './modules/deliverability';
import { EmailsModule } from './modules/emails';
import { VerifyModule } from './modules/verify';
import { WorkflowsModule } from './modules/workflows';
import { EventsModule } from './modules/events';
import { PingModule } from './modules/ping';
import { ProjectsModule } from './modules/projects';
import { TemplatesModule } from './modules/templates';
import { DatabaseModule } from './platform/database/database.module';
import { HealthModule } from './platform/health/health.module';
import { ErrorEnvelopeFilter } from './platform/http/exception.filter';
import { IdempotencyModule } from './platform/http/idempotency/idempotency.module';
import { RateLimitModule } from './platform/http/rate-limit/rate-limit.module';
import { SystemMailModule } from './platform/mail/system-mail.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { QueuesModule } from './platform/queues/queues.module';
import { UsageModule } from './platform/usage/usage.module';
import { SegmentsModule } from './modules/segments';
import { WebhooksModule } from './modules/webhooks';
import { InboundModule } from './modules/inbound';
import { SmtpModule } from './modules/smtp';
import { TopicsModule } from './modules/topics';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(databaseUrl, config.databaseUrl ? 20 : 8, !config.databaseUrl, {
          connectMs: config.outage.databaseConnectTimeoutMs,
          readMs: config.outage.databaseReadTimeoutMs,
        }),
        QueuesModule.forRoot(config, databaseUrl),
        ScheduleModule.forRoot(),
        RateLimitModule,
        IdempotencyModule,
        SystemMailModule,
        AuthModule,
        AuditModule,
        ProjectsModule,
        PingModule,
        HealthModule,
        UsageModule,
        MetricsModule,
        DomainsModule,
        VerifyModule,
        EventsModule,
        TopicsModule,
        ContactsModule,
        TrackModule,
        TemplatesModule,
        EmailsModule,
        DeliverabilityModule,
        BillingModule,
        ActivityModule,
        UploadsModule,
        CampaignsModule,
        SegmentsModule,
        WorkflowsModule,
        WebhooksModule,
        InboundModule,
        SmtpModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_GUARD, useFactory: (reflector: Reflector) => new AccessGuard(reflector, config.publicUrl), inject: [Reflector] },
      ],
    };
  }
}
