import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { ContactFieldsService } from './contact-fields.service';
import { ContactsService } from './contacts.service';

@Module({
  imports: [EventsModule],
  controllers: [],
  providers: [ContactsService, ContactFieldsService],
  exports: [ContactsService, ContactFieldsService],
})
export class ContactsModule {}
