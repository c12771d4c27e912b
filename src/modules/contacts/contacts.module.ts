import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../platform/queues/queues';
import { EventsModule } from '../events';
import { TopicsModule } from '../topics';
import { ContactFieldsController } from './contact-fields.controller';
import { ContactFieldsRepository } from './contact-fields.repository';
import { ContactFieldsService } from './contact-fields.service';
import { ContactsQueriesService } from './contacts-queries.service';
import { ContactsController } from './contacts.controller';
import { ContactsRepository } from './contacts.repository';
import { ContactsService } from './contacts.service';
import { ConfirmationMailer } from './consent/confirmation-mailer';
import { DoubleOptInService } from './consent/double-opt-in.service';
import { BulkJob } from './entities/bulk-job.entity';
import { ContactField } from './entities/contact-field.entity';
import { Contact } from './entities/contact.entity';
import { ImportJobError } from './entities/import-job-error.entity';
import { ImportJob } from './entities/import-job.entity';
import { BULK_PROVIDERS, BulkController } from './bulk/bulk.providers';
import { ConfirmationRepair } from './worker/confirmation-repair';
import { ContactExportService } from './personal-data/contact-export.service';
import { ContactSections } from './personal-data/contact-sections';
import { PersonalDataRegistry } from './personal-data/personal-data.registry';
import { IMPORT_PROVIDERS, ImportController } from './import/import.providers';
import { ContactsRetention } from './contacts.retention';
import { ProjectsModule } from '../projects';

@Module({
  imports: [
    TypeOrmModule.forFeature([Contact, ContactField, ImportJob, ImportJobError, BulkJob]),
    EventsModule,
    ProjectsModule,
    TopicsModule,
    BullModule.registerQueue({ name: QUEUES.contactImport }, { name: QUEUES.contactBulk }),
  ],
  // ContactFieldsController first: its static paths must win over `/contacts/:id`.
  controllers: [ImportController, BulkController, ContactFieldsController, ContactsController],
  providers: [PersonalDataRegistry, ContactsRetention, ContactSections, ContactExportService, ConfirmationMailer, DoubleOptInService, ConfirmationRepair, ContactsRepository, ContactFieldsRepository, ContactsService, ContactFieldsService, ContactsQueriesService, ...IMPORT_PROVIDERS, ...BULK_PROVIDERS],
  exports: [ContactsService, ContactFieldsService, ConfirmationMailer, DoubleOptInService, PersonalDataRegistry],
})
export class ContactsModule {}
