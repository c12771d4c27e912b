import type { ContactsService, Contact } from '../../../contacts';
import { ContactGone } from '../errors';
import type { ExecutionRow } from '../step-executor';

/** The execution's contact; `ContactGone` when it was deleted meanwhile. */
export async function executionContact(contacts: ContactsService, ex: ExecutionRow): Promise<Contact> {
  const contact = await contacts.findById(ex.project_id, ex.contact_id);
  if (!contact) throw new ContactGone();
  return contact;
}
