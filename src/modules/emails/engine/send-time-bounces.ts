import { Injectable } from '@nestjs/common';

/** The email a transport refused for good at hand-over (an SMTP 5xx). */
export interface SendTimeBounce {
  id: string;
  projectId: string | null;
  contactId: string | null;
  toAddress: string;
}

export type SendTimeBounceHandler = (email: SendTimeBounce) => Promise<void>;

/**
 * What follows a permanent bounce at send time beyond the email's own status (suppression,
 * unsubscription, the reputation check) belongs to deliverability, which registers its handler
 * here: the pipeline calls it without depending on that module (DeliverabilityModule imports
 * EmailsModule, never the other way round).
 */
@Injectable()
export class SendTimeBounces {
  private handler: SendTimeBounceHandler | undefined;

  register(handler: SendTimeBounceHandler): void {
    if (this.handler) throw new Error('a send-time bounce handler is registered twice');
    this.handler = handler;
  }

  async bounced(email: SendTimeBounce): Promise<void> {
    await this.handler?.(email);
  }
}
