import { BullModule } from '@nestjs/bullmq';
import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReadinessRegistry } from '../../platform/health/readiness.registry';
import { QUEUES } from '../../platform/queues/queues';
import { BillingModule } from '../billing';
import { ContactsModule } from '../contacts';
import { DomainsModule } from '../domains';
import { EventsModule } from '../events';
import { ProjectsModule } from '../projects';
import { TemplatesModule } from '../templates';
import { EmailsController } from './emails.controller';
import { EmailsRepository } from './emails.repository';
import { EmailsService } from './emails.service';
import { EmailsQueriesController } from './emails-queries.controller';
import { EmailsQueriesService } from './emails-queries.service';
import { EmailsPersonalData } from './emails.personal-data';
import { EmailsRetention } from './emails.retention';
import { EmailRetentionRepository } from './email-retention.repository';
import { EmailContent } from './entities/email-content.entity';
import { Email } from './entities/email.entity';
import { CampaignContact } from './entities/campaign-contact.entity';
import { HandoverWindow } from './entities/handover-window.entity';
import { EmailEvents } from './engine/email-events';
import { EmailPipeline } from './engine/email-pipeline';
import { EmailQueue } from './engine/email-queue';
import { EmailSendProcessor } from './worker/email-send.processor';
import { EmailReadsRepository } from './email-reads.repository';
import { EmailStatusStore } from './email-status.store';
import { EmailSweeper } from './worker/email-sweeper';
import { MessageBuilder } from './engine/message-builder';
import { SendTimeBounces } from './engine/send-time-bounces';
import { ProjectCache } from './engine/project-cache';
import { PipelineSystemMailer } from './system/pipeline-system-mailer';
import { EMAIL_TRANSPORT, EmailTransport } from './transports/email-transport';
import { sendRateProvider } from './transports/send-rate.provider';
import { emailTransportProvider } from './transports/transport.provider';
import { SendEmails } from './use-cases/send-emails';
import { EmailQueueFacade } from './email-queue.facade';
import { TemplatePreviewsController } from './previews/template-previews.controller';
import { EmailPreviews } from './use-cases/email-previews';
import { HandoverWindows } from './engine/handover-windows';
import { HandoverWindowsRepository } from './handover-windows.repository';
import { HandoverWindowsFlush } from './worker/handover-windows.flush';

@Module({
  imports: [
    TypeOrmModule.forFeature([Email, EmailContent, HandoverWindow, CampaignContact]),
    BullModule.registerQueue({ name: QUEUES.emailSend }),
    ProjectsModule,
    TemplatesModule,
    DomainsModule,
    ContactsModule,
    EventsModule,
    BillingModule,
  ],
  controllers: [EmailsController, EmailsQueriesController, TemplatePreviewsController],
  providers: [
    EmailsService,
    EmailsQueriesService,
    EmailsPersonalData,
    EmailsRetention,
    EmailRetentionRepository,
    SendEmails,
    EmailQueue,
    EmailStatusStore,
    EmailReadsRepository,
    EmailPipeline,
    EmailEvents,
    MessageBuilder,
    ProjectCache,
    EmailSendProcessor,
    EmailSweeper,
    PipelineSystemMailer,
    emailTransportProvider,
    sendRateProvider,
    EmailQueueFacade,
    EmailsRepository,
    SendTimeBounces,
    EmailPreviews,
    HandoverWindows,
    HandoverWindowsRepository,
    HandoverWindowsFlush,
  ],
  // EmailStatusStore, EmailReadsRepository, SendTimeBounces and the transport are for DeliverabilityModule (feedback and tracking
  // find their emails through the reads and write through the store).
  exports: [EmailsService, EmailQueueFacade, EmailPreviews, PipelineSystemMailer, EmailStatusStore, EmailReadsRepository, SendTimeBounces, EMAIL_TRANSPORT],
})
export class EmailsModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
    private readonly readiness: ReadinessRegistry,
    private readonly pipeline: EmailPipeline,
  ) {}

  onModuleInit(): void {
    this.readiness.register('transport', () => this.transport.check());
  }

  /** Sends in flight finish before the transport closes (hook order between modules is not guaranteed). */
  async onApplicationShutdown(): Promise<void> {
    await this.pipeline.drain(30_000);
    await this.transport.close();
  }
}
