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
import { ContactExport } from './entities/contact-export.entity';
import { ContactField } from './entities/contact-field.entity';
import { Contact } from './entities/contact.entity';
import { ImportJobError } from './entities/import-job-error.entity';
import { ImportJob } from './entities/import-job.entity';
import { ContactErasure } from './entities/contact-erasure.entity';
import { ErasedAddress } from './entities/erased-address.entity';
import { ErasureSalt } from './entities/erasure-salt.entity';
import { ERASURE_PROVIDERS, ErasureController } from './erasure/erasure.providers';
import { BULK_PROVIDERS, BulkController } from './bulk/bulk.providers';
import { ContactExportsController, EXPORT_PROVIDERS } from './export/export.providers';
import { ContactSelections } from './export/contact-selections';
import { ConfirmationRepair } from './worker/confirmation-repair';
import { ContactExportService } from './personal-data/contact-export.service';
import { ContactSections } from './personal-data/contact-sections';
import { PersonalDataRegistry } from './personal-data/personal-data.registry';
import { IMPORT_PROVIDERS, ImportController } from './import/import.providers';
import { ContactsRetention } from './contacts.retention';
import { ProjectsModule } from '../projects';

@Module({
  imports: [
    TypeOrmModule.forFeature([Contact, ContactField, ImportJob, ImportJobError, BulkJob, ContactErasure, ErasedAddress, ErasureSalt, ContactExport]),
    EventsModule,
    ProjectsModule,
    TopicsModule,
    BullModule.registerQueue({ name: QUEUES.contactImport }, { name: QUEUES.contactBulk }, { name: QUEUES.contactErasure }, { name: QUEUES.contactExport }),
  ],
  // ContactFieldsController, ContactExportsController and ErasureController first: their static paths must win over `/contacts/:id`.
  controllers: [ImportController, BulkController, ContactExportsController, ContactFieldsController, ErasureController, ContactsController],
  providers: [PersonalDataRegistry, ContactsRetention, ContactSections, ContactExportService, ConfirmationMailer, DoubleOptInService, ConfirmationRepair, ContactsRepository, ContactFieldsRepository, ContactsService, ContactFieldsService, ContactsQueriesService, ...IMPORT_PROVIDERS, ...BULK_PROVIDERS, ...ERASURE_PROVIDERS, ...EXPORT_PROVIDERS],
  exports: [ContactsService, ContactFieldsService, ConfirmationMailer, DoubleOptInService, PersonalDataRegistry, ContactSelections],
})
export class ContactsModule {}
