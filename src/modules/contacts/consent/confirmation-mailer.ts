import { Injectable } from '@nestjs/common';
import type { Contact } from '../entities/contact.entity';

/** What sends a confirmation email: deliverability registers it (it owns the signed links and reaches the email pipeline). */
export interface ConfirmationMailerHandler {
  /** Whether the project has double opt-in enabled. */
  enabled(projectId: string): Promise<boolean>;
  /** Writes the confirmation email to the contact (the project's template or the built-in message). */
  send(projectId: string, contact: Contact): Promise<void>;
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

  async send(projectId: string, contact: Contact): Promise<void> {
    if (!this.handler) throw new Error('no confirmation mailer registered');
    await this.handler.send(projectId, contact);
  }
}
