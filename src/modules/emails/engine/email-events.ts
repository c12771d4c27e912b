import { Injectable } from '@nestjs/common';
import { EventsService } from '../../events';
import { emailSource } from '../email-event-data';
import type { LoadedEmail } from '../email-status.rows';
import { isTestCopy } from '../test-copy';

/** Persisted event names (docs/decisions.md#events). */
export type EmailEventName = 'email.sent' | 'email.delivery' | 'email.bounce';

/** Emits the pipeline's `email.*` events with the payload of docs/decisions.md#events; account mail (no project) and test copies emit none. */
@Injectable()
export class EmailEvents {
  constructor(private readonly events: EventsService) {}

  async emit(email: LoadedEmail, subject: string, names: EmailEventName[], extra: Record<string, unknown> = {}): Promise<void> {
    if (!email.projectId) return;
    const projectId = email.projectId;
    await this.events.recordMany(this.payloads(email, subject, names, extra).map((event) => ({ projectId, contactId: email.contactId, ...event })));
  }

  /** The events to store for `email` (none for account mail), for a caller that writes them in its own statement. */
  payloads(email: LoadedEmail, subject: string, names: EmailEventName[], extra: Record<string, unknown> = {}): Array<{ name: EmailEventName; data: Record<string, unknown> }> {
    // Test copies count nowhere (test-copy.ts): no events, so no activity, webhook or timeline entry.
    if (!email.projectId || isTestCopy(email)) return [];
    const data = { emailId: email.id, subject, from: email.fromAddress, templateId: email.templateId, campaignId: email.campaignId, ...emailSource(email.source), ...extra };
    return names.map((name) => ({ name, data }));
  }
}
