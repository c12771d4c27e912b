import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, Reflector } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { AccessGuard } from './modules/auth/access.guard';
import { ActivityModule } from './modules/activity/activity.module';
import { UploadsModule } from './modules/uploads/uploads.module';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { CampaignsModule } from './modules/campaigns/campaigns.module';
import { ContactsModule } from './modules/contacts/contacts.module';
import { DomainsModule } from './modules/domains/domains.module';
import { DeliverabilityModule } from './modules/deliverability/deliverability.module';
import { EmailsModule } from './modules/emails/emails.module';
import { VerifyModule } from './modules/verify/verify.module';
import { WorkflowsModule } from './modules/workflows/workflows.module';
import { EventsModule } from './modules/events/events.module';
import { TrackModule } from './modules/events/track/track.module';
import { PingModule } from './modules/ping/ping.module';
import { ProjectsModule } from './modules/projects/projects.module';
import { TemplatesModule } from './modules/templates/templates.module';
import { DatabaseModule } from './platform/database/database.module';
import { HealthModule } from './platform/health/health.module';
import { ErrorEnvelopeFilter } from './platform/http/exception.filter';
import { IdempotencyModule } from './platform/http/idempotency/idempotency.module';
import { RateLimitModule } from './platform/http/rate-limit/rate-limit.module';
import { SystemMailModule } from './platform/mail/system-mail.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { QueuesModule } from './platform/queues/queues.module';
import { UsageModule } from './platform/usage/usage.module';
import { SegmentsModule } from './modules/segments/segments.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { InboundModule } from './modules/inbound/inbound.module';
import { SmtpModule } from './modules/smtp/smtp.module';
import { TopicsModule } from './modules/topics/topics.module';

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
        DatabaseModule.forRoot(databaseUrl, config.databaseUrl ? 20 : 8, !config.databaseUrl, config.outage.databaseConnectTimeoutMs),
        QueuesModule.forRoot(config, databaseUrl),
        ScheduleModule.forRoot(),
        RateLimitModule,
        IdempotencyModule,
        SystemMailModule,
        AuthModule,
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
