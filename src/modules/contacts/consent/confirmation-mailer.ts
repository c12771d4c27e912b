import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Contact } from '../entities/contact.entity';

/** Writes a composed confirmation email in the caller's transaction: the ids of the emails written. */
export type ConfirmationWriter = (em: EntityManager) => Promise<string[]>;

/** What sends a confirmation email: deliverability registers it (it owns the signed links and reaches the email pipeline). */
export interface ConfirmationMailerHandler {
  /** Whether the project has double opt-in enabled. */
  enabled(projectId: string): Promise<boolean>;
  /**
   * The confirmation email to the contact (the project's template or the built-in message), its
   * reads done ahead: the writer it gives writes it in the caller's transaction without another
   * connection (embedded mode has one) and returns what `deliver` hands to the queue after the commit.
   */
  compose(projectId: string, contact: Contact): Promise<ConfirmationWriter>;
  /** Hands emails written by `write` to the queue, once their transaction committed. */
  deliver(emailIds: string[]): Promise<void>;
}

/**
 * The port between contacts (who decides that a contact must confirm) and the module that sends
 * the email (which imports contacts, so contacts cannot import it): filled once at start.
 */
@Injectable()
export class ConfirmationMailer {
  private handler: ConfirmationMailerHandler | null = null;

  register(handler: ConfirmationMailerHandler): void {
    this.handler = handler;
  }

  enabled(projectId: string): Promise<boolean> {
    return this.handler ? this.handler.enabled(projectId) : Promise.resolve(false);
  }

  compose(projectId: string, contact: Contact): Promise<ConfirmationWriter> {
    return this.mailer().compose(projectId, contact);
  }

  deliver(emailIds: string[]): Promise<void> {
    return emailIds.length ? this.mailer().deliver(emailIds) : Promise.resolve();
  }

  private mailer(): ConfirmationMailerHandler {
    if (!this.handler) throw new Error('no confirmation mailer registered');
    return this.handler;
  }
}
