import { Injectable, OnModuleInit } from '@nestjs/common';
import { keysetBatches, PersonalDataRegistry } from '../contacts';
import { EmailsQueriesService } from './emails-queries.service';
import { EmailStatusStore } from './email-status.store';

/** Emails per batch: the email list's largest page. */
const BATCH = '100';

/**
 * The `emails` section of a contact's personal data (contacts' `PersonalDataRegistry`): its
 * emails as `GET /v1/emails?contactId=` pages them, each with what is kept of its content (null, with
 * `contentExpiredAt`, past the project's retention); erased, they stay as anonymous rows (`EmailStatusStore.eraseRecipient`).
 */
@Injectable()
export class EmailsPersonalData implements OnModuleInit {
  constructor(
    private readonly registry: PersonalDataRegistry,
    private readonly queries: EmailsQueriesService,
    private readonly store: EmailStatusStore,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'emails',
      export: (projectId, subject) =>
        keysetBatches<unknown, string>(async (cursor) => {
          const page = await this.queries.list(projectId, { contactId: subject.id, limit: BATCH, cursor: cursor ?? undefined });
          const contents = await this.queries.contentsAsKept(projectId, page.data.map((e) => ({ id: e.id, createdAt: new Date(e.createdAt) })));
          return { items: page.data.map((email) => ({ ...email, ...contents.get(email.id)! })), next: page.hasMore ? page.cursor : null };
        }),
      erase: (projectId, subject, manager) => this.store.eraseRecipient(projectId, subject.id, manager),
    });
  }
}
