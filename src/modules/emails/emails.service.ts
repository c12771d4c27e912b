import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { StatementRunner } from '../../platform/database/statement-runner';
import type { Email } from './entities/email.entity';
import { EmailQueue } from './pipeline/email-queue';
import { EmailStatusStore } from './pipeline/email-status';
import type { SendRequest } from './send/send-request';
import type { SendResult } from './send/send.response';
import { insertContentsAndEmails, NewEmailContent, NewEmailRecipient, NewEmails } from './use-cases/email-writer';
import { SendEmails } from './use-cases/send-emails';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import type { IdempotencyClaim } from '../../platform/http/idempotency/idempotency-claim';


/**
 * The sending module's entry points for other modules: `/v1/send`, and `queue` for callers that
 * decided their recipients themselves (campaigns, workflows, account mail).
 */
@Injectable()
export class EmailsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sendEmails: SendEmails,
    private readonly emailQueue: EmailQueue,
    private readonly statements: StatementRunner,
    private readonly status: EmailStatusStore,
  ) {}

  /** A campaign's `uncertain` emails queued and sent again (the user's at-least-once choice); returns how many. */
  async resendUncertain(projectId: string, campaignId: string): Promise<number> {
    const emails = await this.status.requeueUncertain(projectId, campaignId);
    for (const type of new Set(emails.map((e) => e.type))) {
      await this.emailQueue.enqueueOrLeaveForSweep(
        emails.filter((e) => e.type === type).map((e) => e.id),
        type,
      );
    }
    return emails.length;
  }


  send(projectId: string, req: SendRequest, claim?: IdempotencyClaim): Promise<SendResult> {
    return this.sendEmails.execute(projectId, req, claim);
  }

  /**
   * Writes one content row and one `queued` email per recipient, then enqueues them. Inside a
   * caller's transaction (`manager`), enqueuing is left to the caller, after its commit
   * (`enqueue(ids, type)`); the sweep enqueues anything a crash left behind.
   */
  async queue(content: NewEmailContent, emails: NewEmails, recipients: NewEmailRecipient[], manager?: EntityManager): Promise<string[]> {
    const [ids] = await insertContentsAndEmails(this.statements, manager ?? this.dataSource.manager, [{ content, emails, recipients }]);
    if (manager) return ids;
    await this.emailQueue.enqueueOrLeaveForSweep(ids, emails.type);
    return ids;
  }

  enqueue(emailIds: string[], type: Email['type']): Promise<void> {
    return this.emailQueue.enqueue(emailIds, type);
  }

  /** The email of this project, or null (also for a malformed id). */
  async findById(projectId: string, id: string): Promise<Email | null> {
    if (!isUuid(id)) return null;
    const rows = await this.dataSource.getRepository<Email>('Email').findOneBy({ projectId, id });
    return rows ?? null;
  }
}
