import type { ContactsService } from '../../../contacts/contacts.service';
import type { Contact } from '../../../contacts/entities/contact.entity';
import { ContactGone } from '../errors';
import type { ExecutionRow } from '../step-executor';

/** The execution's contact; `ContactGone` when it was deleted meanwhile. */
export async function executionContact(contacts: ContactsService, ex: ExecutionRow): Promise<Contact> {
  const contact = await contacts.findById(ex.project_id, ex.contact_id);
  if (!contact) throw new ContactGone();
  return contact;
}
