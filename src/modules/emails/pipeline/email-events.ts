import { Injectable } from '@nestjs/common';
import { EventsService } from '../../events/events.service';
import type { LoadedEmail } from './email-status';

/** Persisted event names (decisions.md "Events"). */
export type EmailEventName = 'email.sent' | 'email.delivery' | 'email.bounce';

/** Emits the pipeline's `email.*` events with the decisions.md payload; account mail (no project) emits none. */
@Injectable()
export class EmailEvents {
  constructor(private readonly events: EventsService) {}

  async emit(email: LoadedEmail, subject: string, names: EmailEventName[], extra: Record<string, unknown> = {}): Promise<void> {
    if (!email.projectId) return;
    const data = { emailId: email.id, subject, from: email.fromAddress, templateId: email.templateId, campaignId: email.campaignId, ...extra };
    for (const name of names) await this.events.record(email.projectId, { contactId: email.contactId, name, data });
  }
}
