import { ConfirmationEmailController } from './links/confirmation-email.controller';
import { TopicsModule } from '../topics';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing';
import { ContactsModule } from '../contacts';
import { DomainsModule } from '../domains';
import { EmailsModule } from '../emails';
import { EventsModule } from '../events';
import { ProjectsModule } from '../projects';
import { SnsMessageRecord } from './entities/sns-message.entity';
import { Suppression } from './entities/suppression.entity';
import { DeliveryFeedbackService } from './inbound/delivery-feedback.service';
import { SesNotificationsService } from './inbound/ses-notifications.service';
import { SnsCertificates } from './inbound/sns-certificates';
import { SnsMessagesRepository } from './inbound/sns-messages.repository';
import { SnsController } from './inbound/sns.controller';
import { SnsService } from './inbound/sns.service';
import { RecipientLinksController } from './links/recipient-links.controller';
import { RecipientLinksService } from './links/recipient-links.service';
import { ConfirmationService } from './links/confirmation.service';
import { TemplatesModule } from '../templates';
import { SuppressionService } from './suppression/suppression.service';
import { SuppressionsRepository } from './suppression/suppressions.repository';
import { TrackingController } from './tracking/tracking.controller';
import { TrackingService } from './tracking/tracking.service';
import { SnsMessagesPurge } from './worker/sns-messages-purge';

/**
 * What happens to mail after it leaves: suppression, recipient links and pages, open and click
 * tracking, SNS/SES feedback. It imports EmailsModule (feedback and tracking write an email's
 * status through `EmailStatusStore`); EmailsModule never imports it: what the pipeline needs from
 * here at build and queue time is pure functions and SQL fragments (`links/recipient-links.ts`,
 * `tracking/instrument-tracking.ts`, `suppression/suppressions.sql.ts`), and a send-time bounce
 * reaches `DeliveryFeedbackService` through the `SendTimeBounces` it registers on.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Suppression, SnsMessageRecord]),
    EmailsModule,
    ProjectsModule,
    ContactsModule,
    TopicsModule,
    EventsModule,
    DomainsModule,
    BillingModule,
    TemplatesModule,
  ],
  controllers: [TrackingController, RecipientLinksController, ConfirmationEmailController, SnsController],
  providers: [
    SuppressionService,
    SuppressionsRepository,
    RecipientLinksService,
    ConfirmationService,
    TrackingService,
    DeliveryFeedbackService,
    SesNotificationsService,
    SnsService,
    SnsCertificates,
    SnsMessagesRepository,
    SnsMessagesPurge,
  ],
  exports: [SuppressionService, DeliveryFeedbackService],
})
export class DeliverabilityModule {}
