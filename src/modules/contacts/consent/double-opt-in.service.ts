// Double opt-in (docs/consent.md): when a contact must confirm, its confirmation email, the repair pass and the confirmation itself.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EventsService, CONTACT_CONFIRMED, CONTACT_SUBSCRIBED, isContactId } from '../../events';
import { alreadySubscribed, confirmationThrottled, contactNotFound } from '../contacts.errors';
import { ContactsRepository } from '../contacts.repository';
import { ErasuresRepository } from '../erasure/erasures.repository';
import type { UpsertContactInput } from '../contacts.types';
import { fromContactRow } from '../contacts.rows';
import type { Contact } from '../entities/contact.entity';
import { ConfirmationMailer } from './confirmation-mailer';
import { CONFIRMATION_REPAIR_GRACE_SECONDS, CONFIRMATION_RESEND_INTERVAL_SECONDS, ConfirmWhen, OptInTrigger, subscribesWhen, withoutSubscription } from './double-opt-in';

@Injectable()
export class DoubleOptInService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly repository: ContactsRepository,
    private readonly confirmations: ConfirmationMailer,
    private readonly erased: ErasuresRepository,
  ) {}

  /**
   * Double opt-in for one upsert (docs/consent.md): when the project has it enabled,
   * the call triggers it and the upsert would subscribe the contact, the upsert runs without
   * subscribing and `confirm` says when to `requestConfirmation` once it is written (`new`: only
   * for a contact the upsert created, as an existing one would have kept its state). Otherwise the
   * input comes back unchanged (secret-key calls without `doubleOptIn: true` behave as before).
   */
  async optIn(projectId: string, input: UpsertContactInput, trigger: OptInTrigger): Promise<{ input: UpsertContactInput; confirm: ConfirmWhen | null }> {
    const when = subscribesWhen(input);
    if (!(trigger.publicKey || trigger.requested) || !when) return { input, confirm: null };
    if (!(await this.confirmations.enabled(projectId))) return { input, confirm: null };
    return { input: withoutSubscription(input, when), confirm: when };
  }

  /**
   * After an opt-in upsert committed (which stamped `confirmation_requested_at`): an unsubscribed
   * contact becomes `pending` and gets the confirmation email, at most one per 10 minutes
   * (repeated sign-ups send no more). A contact already subscribed (confirmed, or subscribed
   * before) is left as it is. A crash before this runs leaves the marker to `writeOwedConfirmations`.
   */
  async requestConfirmation(projectId: string, { contact, isNew }: { contact: Contact; isNew: boolean }, when: ConfirmWhen | null): Promise<Contact> {
    if (!when || (when === 'new' && !isNew) || contact.subscribed) return contact;
    const marked = await this.markAndWriteConfirmation(projectId, contact, true);
    if (marked) return marked.contact;
    // Another request's or the repair pass's transaction wrote it first: the contact as it is now.
    return (await this.find(projectId, contact.id)) ?? contact;
  }

  /** `requestConfirmation` by id, after a commit that wrote the contact (`/v1/send` with `doubleOptIn: true`). */
  async requestConfirmationOf(projectId: string, contactId: string): Promise<void> {
    const contact = await this.find(projectId, contactId);
    if (contact) await this.requestConfirmation(projectId, { contact, isNew: false }, 'always');
  }

  /**
   * The repair pass (`ConfirmationRepair`): confirmation emails that upserts asked for more than
   * `CONFIRMATION_REPAIR_GRACE_SECONDS` ago and that were never written, each through the same
   * transaction as the normal path, so a contact gets its email once whichever process gets there.
   */
  async writeOwedConfirmations(onError: (err: unknown, contactId: string) => void, limit = 100): Promise<number> {
    const owed = await this.repository.owedConfirmations(CONFIRMATION_REPAIR_GRACE_SECONDS, limit);
    let written = 0;
    for (const { projectId, id } of owed) {
      try {
        const contact = await this.find(projectId, id);
        if (contact && (await this.markAndWriteConfirmation(projectId, contact, true))?.due) written++;
      } catch (err) {
        onError(err, id); // Left owed: the next round tries again; one contact never holds up the others.
      }
    }
    return written;
  }

  /**
   * `POST /contacts/:id/confirmation`: the confirmation email again (429 within 10 minutes of the
   * last one). A confirmed, subscribed contact: nothing to do; subscribed without confirming: 409.
   */
  async resendConfirmation(projectId: string, id: string): Promise<Contact> {
    const contact = await this.get(projectId, id);
    if (contact.subscribed) {
      if (contact.confirmation === 'confirmed') return contact;
      throw alreadySubscribed();
    }
    const marked = await this.markAndWriteConfirmation(projectId, contact, false);
    if (!marked) return this.get(projectId, id);
    if (!marked.due) throw confirmationThrottled(marked.waitSeconds);
    return marked.contact;
  }

  /**
   * The confirmation link's POST: a `pending` contact becomes subscribed and `confirmed`, with
   * `contact.confirmed` (and `contact.subscribed` on a flip) stored in the same transaction for
   * the event outbox. Null when it was not pending (already confirmed: a no-op).
   */
  async confirm(projectId: string, id: string): Promise<Contact | null> {
    if (!isContactId(id)) return null;
    return this.dataSource.transaction(async (em) => {
      const confirmed = await this.repository.confirm(projectId, id, em);
      if (!confirmed) return null;
      const data = { source: 'system', reason: 'confirmation_link' };
      await this.erased.liftErasedAddress(projectId, confirmed.row.email, em);
      await this.events.record(projectId, { contactId: id, name: CONTACT_CONFIRMED, data }, em);
      if (confirmed.flipped) await this.events.record(projectId, { contactId: id, name: CONTACT_SUBSCRIBED, data }, em);
      return fromContactRow(confirmed.row);
    });
  }

  /**
   * Marks the contact `pending` and, when the resend interval allows (`due`), writes the
   * confirmation email in the same transaction: the stamp that throttles the next one and the
   * email commit together (a failed write leaves neither), then the email goes to the queue.
   */
  private async markAndWriteConfirmation(projectId: string, contact: Contact, owedOnly: boolean): Promise<{ contact: Contact; due: boolean; waitSeconds: number } | null> {
    const write = await this.confirmations.compose(projectId, contact);
    let emailIds: string[] = [];
    const marked = await this.dataSource.transaction(async (em) => {
      const row = await this.repository.markConfirmationPending(projectId, contact.id, CONFIRMATION_RESEND_INTERVAL_SECONDS, owedOnly, em);
      if (!row) return null;
      if (row.due) emailIds = await write(em);
      return { contact: fromContactRow(row.row), due: row.due, waitSeconds: row.waitSeconds };
    });
    await this.confirmations.deliver(emailIds);
    return marked;
  }

  /** The contact as stored now; null when absent (also for a malformed id or another project's id). */
  private async find(projectId: string, id: string): Promise<Contact | null> {
    if (!isContactId(id)) return null;
    const row = await this.repository.findById(projectId, id);
    return row ? fromContactRow(row) : null;
  }

  private async get(projectId: string, id: string): Promise<Contact> {
    const contact = await this.find(projectId, id);
    if (!contact) throw contactNotFound();
    return contact;
  }
}
