// The shapes of writes to contacts: an upsert's input and result, a patch, and where a change came from.
import type { ConfirmWhen } from './consent/double-opt-in';
import type { JsonObject } from './data/data-patch';
import type { Contact } from './entities/contact.entity';

/** Persisted in subscription events' `data.source`. */
export type ContactSource = 'api' | 'track' | 'send' | 'import' | 'workflow' | 'bulk' | 'system';

export interface UpsertContactInput {
  email: string;
  data?: JsonObject;
  /** Data keys stored only where the contact has none yet (a send's `to.name`); `data` wins over them. */
  dataDefaults?: JsonObject;
  /** Explicit value, or undefined to keep an existing contact's state. */
  subscribed?: boolean;
  /** State of a contact created by this call. */
  defaultSubscribed: boolean;
  source: ContactSource;
  /** Topic choices patched like `data` (null removes a choice); an unknown slug is a 422 before anything is written. */
  topics?: JsonObject;
  /** Double opt-in (set by `optIn` through `withoutSubscription`): the upsert records that the contact must confirm. */
  confirm?: ConfirmWhen | null;
}

export interface UpsertContactResult {
  contact: Contact;
  isNew: boolean;
  changed: boolean;
  /** Stored data after the patch, overlaid with this call's one-off values. */
  variables: JsonObject;
}

export interface PatchContactInput {
  email?: string;
  subscribed?: boolean;
  data?: JsonObject;
  topics?: JsonObject;
  /** A future instant, or null to end a snooze. */
  snoozedUntil?: Date | null;
}
