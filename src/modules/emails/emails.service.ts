import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AudienceSkipReason } from './email-queue.facade';
import { EmailsRepository } from './emails.repository';
import { EmailQueue } from './engine/email-queue';
import { HandoverWindowsRepository } from './handover-windows.repository';
import { EmailStatusStore } from './email-status.store';
import type { SendRequest } from './send/send-request';
import type { SendResult } from './send/send.response';
import { SendEmails } from './use-cases/send-emails';
import type { IdempotencyClaim } from '../../platform/http/idempotency/idempotency-claim';

/**
 * The sending module's entry points for its controller and for what other modules do to emails
 * that exist (a campaign's cancel or resend). Writing emails is `EmailQueueFacade`'s.
 */
@Injectable()
export class EmailsService {
  constructor(
    private readonly emails: EmailsRepository,
    private readonly sendEmails: SendEmails,
    private readonly emailQueue: EmailQueue,
    private readonly status: EmailStatusStore,
    private readonly windows: HandoverWindowsRepository,
  ) {}

  /**
   * The share (0 to 1) of `uncertain` emails that usually arrived all the same, as this deployment's
   * hand-overs measure it (`HandoverWindowsRepository`); null before any was measured.
   */
  uncertainArrivedShare(): Promise<number | null> {
    return this.windows.acceptedShare();
  }

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

  /** A cancelled campaign's emails still `queued` become skipped `cancelled`, in the cancel's transaction (the counters' trigger adds them). */
  cancelQueued(em: EntityManager, projectId: string, campaignId: string): Promise<void> {
    const reason: AudienceSkipReason = 'cancelled';
    return this.status.skipQueuedOfCampaign(em, projectId, campaignId, reason);
  }

  send(projectId: string, req: SendRequest, claim?: IdempotencyClaim): Promise<SendResult> {
    return this.sendEmails.execute(projectId, req, claim);
  }
}
