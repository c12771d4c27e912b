import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '../../platform/queues/queues';
import { EventsModule } from '../events/events.module';
import { ContactFieldsController } from './contact-fields.controller';
import { ContactFieldsService } from './contact-fields.service';
import { ContactsQueriesService } from './contacts-queries.service';
import { ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';
import { BULK_PROVIDERS, BulkController } from './bulk/bulk.providers';
import { IMPORT_PROVIDERS, ImportController } from './import/import.providers';

@Module({
  imports: [EventsModule, BullModule.registerQueue({ name: QUEUES.contactImport }, { name: QUEUES.contactBulk })],
  // ContactFieldsController first: its static paths must win over `/contacts/:id`.
  controllers: [ImportController, BulkController, ContactFieldsController, ContactsController],
  providers: [ContactsService, ContactFieldsService, ContactsQueriesService, ...IMPORT_PROVIDERS, ...BULK_PROVIDERS],
  exports: [ContactsService, ContactFieldsService],
})
export class ContactsModule {}
