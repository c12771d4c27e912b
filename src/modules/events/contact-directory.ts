import { Injectable } from '@nestjs/common';

/** What the event reads need to know of contacts: whether one is the project's, and their addresses. */
export interface ContactLookup {
  /** Whether the project has a contact with this id (a well-formed contact id). */
  exists(projectId: string, contactId: string): Promise<boolean>;
  /** The address of each of the project's contacts among `ids` (others are left out). */
  emailsOf(projectId: string, ids: string[]): Promise<Map<string, string>>;
}

/**
 * Where the module owning contacts plugs in the lookups the event list makes, so this module never
 * reads that table (the contacts module imports this one, not the other way round). Without a
 * registered lookup (no contacts module) no contact exists.
 */
@Injectable()
export class ContactDirectory implements ContactLookup {
  private lookup: ContactLookup | null = null;

  register(lookup: ContactLookup): void {
    if (this.lookup) throw new Error('a contact lookup is registered twice');
    this.lookup = lookup;
  }

  exists(projectId: string, contactId: string): Promise<boolean> {
    return this.lookup ? this.lookup.exists(projectId, contactId) : Promise.resolve(false);
  }

  emailsOf(projectId: string, ids: string[]): Promise<Map<string, string>> {
    return this.lookup && ids.length > 0 ? this.lookup.emailsOf(projectId, ids) : Promise.resolve(new Map());
  }
}
