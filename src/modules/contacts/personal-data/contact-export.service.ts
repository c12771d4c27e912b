import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { eachWithinOwnDeadline } from '../../../platform/http/request-deadline';
import { ContactsService } from '../contacts.service';
import { toContactResponse } from '../dto/contact.response';
import type { Contact } from '../entities/contact.entity';
import { contactExportJson } from './export-json';
import { PersonalDataRegistry } from './personal-data.registry';

/**
 * `GET /contacts/:id/export`: everything held about one contact, as one JSON document written
 * section by section (docs/personal-data.md). The contact is found first (404 before any byte),
 * the sections are read as the client takes the document, one batch at a time.
 */
@Injectable()
export class ContactExportService {
  constructor(
    private readonly contacts: ContactsService,
    private readonly registry: PersonalDataRegistry,
  ) {}

  async open(projectId: string, id: string): Promise<{ contact: Contact; json: Readable }> {
    const contact = await this.contacts.getById(projectId, id);
    const subject = { id: contact.id, email: contact.email };
    // Each batch's reads are bounded by REQUEST_TIMEOUT_MS, not the whole download; one piece is
    // read ahead of what the response has taken.
    const pieces = eachWithinOwnDeadline(contactExportJson(projectId, subject, toContactResponse(contact), this.registry.all(), new Date()));
    const json = Readable.from(pieces, { highWaterMark: 1 });
    return { contact, json };
  }
}
