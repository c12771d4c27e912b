import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { BillingModule } from '../billing';
import { ContactsModule } from '../contacts';
import { DeliverabilityModule } from '../deliverability';
import { DomainsModule } from '../domains';
import { EventsModule } from '../events';
import { ProjectsModule } from '../projects';
import { SmtpModule } from '../smtp';
import { closeObjectStorage, createObjectStorage, ImageStorage } from '../uploads';
import { InboundMessage } from './entities/inbound-message.entity';
import { InboundController } from './inbound.controller';
import { InboundRepository } from './inbound.repository';
import { INBOUND_STORAGE, InboundService } from './inbound.service';
import { MailAuth } from './receive/mail-auth';
import { BounceReports } from './receive/bounce-reports';
import { InboundListener } from './receive/inbound-listener';
import { InboundRetention } from './inbound.retention';
import { InboundPersonalData } from './inbound.personal-data';

/**
 * Mail received over SMTP (docs/integrations.md, "Inbound mail and bounces"): records, raw
 * bytes in the `inbound` storage area, `email.received` events, VERP bounce and complaint
 * reports, the routes and their retention (the pruner it registers with projects' `RetentionRegistry`). The SMTP listener hands it each message.
 */
@Module({
  imports: [TypeOrmModule.forFeature([InboundMessage]), BillingModule, ContactsModule, DeliverabilityModule, DomainsModule, EventsModule, ProjectsModule, SmtpModule],
  controllers: [InboundController],
  providers: [
    InboundService,
    InboundRepository,
    BounceReports,
    MailAuth,
    InboundListener,
    InboundRetention,
    InboundPersonalData,
    { provide: INBOUND_STORAGE, useFactory: (config: AppConfig): ImageStorage => createObjectStorage(config, 'inbound'), inject: [APP_CONFIG] },
  ],
  exports: [InboundService],
})
export class InboundModule implements OnApplicationShutdown {
  constructor(@Inject(INBOUND_STORAGE) private readonly storage: ImageStorage) {}

  onApplicationShutdown(): void {
    closeObjectStorage(this.storage);
  }
}
