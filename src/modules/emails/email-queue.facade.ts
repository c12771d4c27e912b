import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fragment } from '../../platform/database/sql-fragment';
import type { SystemMessage } from '../../platform/mail/system-mailer';
import type { TrackingMode } from '../projects';
import type { TopicRule } from '../topics';
import type { EmailType } from './entities/email.entity';
import { EmailQueue } from './engine/email-queue';
import { ProjectCache } from './engine/project-cache';
import { RecipientSkipReason, respectsSubscription, skipReason } from './recipient-policy';
import type { NewEmailContent } from './sql/insert-emails.sql';
import { suppressionKey } from './sql/suppressions.sql';
import { AudienceVariants, EmailsRepository } from './emails.repository';
export type { AudienceVariants } from './emails.repository';
import { EmailStatusStore } from './email-status.store';
import { WarmupLedger } from '../domains';

/** Whether opens and clicks are tracked: the per-send override wins over the project's mode. */
function trackingFor(mode: TrackingMode, type: EmailType, override: boolean | undefined): boolean {
  if (override !== undefined) return override;
  if (mode === 'DISABLED') return false;
  if (mode === 'MARKETING_ONLY') return type === 'MARKETING';
  return true;
}

/** A project's content row as a caller gives it (the façade adds the project). */
/** `liquid: false` only for final content (the SMTP relay's messages). */
export type EmailContentInput = Omit<NewEmailContent, 'projectId'>;

/** What every email of one send shares, whoever asks for it (`/v1/send`, a workflow step, a campaign). */
export interface EmailSend {
  type: EmailType;
  fromAddress: string;
  /** Per-send override of the project's tracking mode (`/v1/send`'s `tracking`); omitted, the mode decides. */
  tracking?: boolean;
  campaignId?: string | null;
  /** The workflow execution whose SEND_EMAIL step sends it (`GET /v1/emails` shows it). */
  workflowExecutionId?: string | null;
  /** `smtp` for the submission relay: stored on the emails, carried by their `email.*` events. */
  source?: 'smtp';
}

/** A recipient in hand: the contact (if any), and what the recipient policy needs of it. */
export interface EmailRecipient {
  contactId: string | null;
  email: string;
  name: string | null;
  /** A recipient with no contact (a test copy) counts as subscribed. */
  subscribed: boolean;
  /** The contact's snooze end (MARKETING mail waits until then); absent: not snoozed. */
  snoozedUntil?: Date | null;
  /** Render-time variables; null makes the pipeline read the contact's data when it sends. */
  variables: Record<string, unknown> | null;
}

export interface RecipientsRequest {
  projectId: string;
  send: EmailSend & { content: EmailContentInput };
  recipients: EmailRecipient[];
}

/**
 * Per recipient, in order: its email id, or why it gets none. `heldUntil`: workflow mail past its
 * domain's warm-up cap, written `queued` but not sent before then (not to be enqueued: the sweep does it when due).
 */
export type RecipientOutcome = { emailId: string; heldUntil?: Date } | { skipped: RecipientSkipReason };

/** Keyset position in an audience: `createdAt` is PostgreSQL's text of the timestamp (full precision). */
export interface AudienceCursor {
  createdAt: string;
  id: string;
}

export interface AudienceBatch extends EmailSend {
  campaignId: string;
  /** The content row every email of the audience shares (`createContent`). */
  contentId: string;
  /** Which contacts (alias `c`) belong to the audience, e.g. the segments engine's condition. */
  condition: Fragment;
  /** Only contacts created up to this instant (PostgreSQL text of a timestamptz): the audience fixed at start. */
  fixedAt: string;
  after: AudienceCursor | null;
  limit: number;
  /** The campaign's topic: contacts that are not its members are written skipped `topic`. */
  topic?: TopicRule | null;
  /** An A/B test's split: per contact, its variant's content and letter (`contentId` unused). */
  variants?: AudienceVariants;
  /**
   * The whole audience when `condition` is narrowed to what may be written now (a release
   * schedule): whether any of it remains past the cursor decides if a full warm-up day holds the
   * batch. Absent: `condition`.
   */
  wholeCondition?: Fragment;
}

/** Persisted in `emails.error` of a campaign's `skipped` rows (campaign stats group by it). */
export type AudienceSkipReason = RecipientSkipReason | 'render_error' | 'cancelled';

export interface AudienceBatchResult {
  /** Rows written now (a row that already existed for the contact is not written again). */
  inserted: number;
  /** Email ids written `queued`, to enqueue after the commit (`enqueueGrouped`, bulk). */
  queuedIds: string[];
  skipped: Partial<Record<AudienceSkipReason, number>>;
  /** The last contact of the batch, null when the audience is exhausted. */
  last: AudienceCursor | null;
}

/**
 * The one door for email: whoever needs emails of a project written asks here, with recipients
 * in hand (`queueForRecipients`) or an audience as a SQL condition (`queueForAudience`). The
 * façade applies the recipient policy (`recipient-policy.ts`) and the sender's warm-up cap (the
 * one place it is applied: counted by the insert for mail a cap never holds, booked for workflow
 * mail, taken per batch for an audience), decides tracking from the project's mode (as the
 * pipeline reads it, cached for a few seconds) and writes through the one statement builder
 * (`sql/insert-emails.sql.ts`).
 */
@Injectable()
export class EmailQueueFacade {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: EmailQueue,
    private readonly projects: ProjectCache,
    private readonly emails: EmailsRepository,
    private readonly warmup: WarmupLedger,
    private readonly store: EmailStatusStore,
  ) {}

  /**
   * The recipient policy over several requests' recipients, with one suppression query for all of
   * them: per request, per recipient, its skip reason or null.
   */
  private async skipReasons(
    requests: Array<{ projectId: string; type: EmailType; recipients: Array<Pick<EmailRecipient, 'email' | 'subscribed' | 'snoozedUntil'>> }>,
    em?: EntityManager,
  ): Promise<Array<Array<RecipientSkipReason | null>>> {
    // docs/decisions.md#sending: MARKETING and HEADLESS mail respects unsubscription and suppression; TRANSACTIONAL ignores both.
    const suppressed = await this.emails.suppressedAmong(
      requests.flatMap(({ projectId, type, recipients }) => (respectsSubscription(type) ? recipients.map((r) => ({ projectId, email: r.email })) : [])),
      em,
    );
    return requests.map(({ projectId, type, recipients }) =>
      recipients.map((r) => skipReason(type, { email: r.email, suppressed: suppressed.has(suppressionKey(projectId, r.email)), subscribed: r.subscribed, snoozedUntil: r.snoozedUntil })),
    );
  }

  /**
   * One content row and a `queued` email per recipient the policy lets through. Inside a caller's
   * transaction (`em`) the caller enqueues after its commit (`enqueue`); otherwise the rows are
   * written and enqueued here (the sweep enqueues anything a crash left behind).
   */
  async queueForRecipients(projectId: string, send: RecipientsRequest['send'], recipients: EmailRecipient[], em?: EntityManager): Promise<RecipientOutcome[]> {
    const [outcomes] = await this.queueForRecipientsIn(em ?? this.dataSource.manager, [{ projectId, send, recipients }]);
    if (!em) await this.enqueueGrouped(dueEmailIds(outcomes), send.type);
    return outcomes;
  }

  /** Several requests (concurrent `/v1/send` requests sharing a transaction) in one suppression query and one insert. */
  async queueForRecipientsIn(em: EntityManager, requests: RecipientsRequest[]): Promise<RecipientOutcome[][]> {
    const outcomes = await this.skipReasons(
      requests.map(({ projectId, send, recipients }) => ({ projectId, type: send.type, recipients })),
      em,
    );
    const rows = [];
    for (const [i, { projectId, send, recipients }] of requests.entries()) {
      const track = await this.tracks(projectId, send, em);
      rows.push({
        content: { ...send.content, projectId },
        emails: { projectId, templateId: send.content.templateId, campaignId: send.campaignId ?? null, workflowExecutionId: send.workflowExecutionId ?? null, type: send.type, fromAddress: send.fromAddress, trackOpens: track, trackClicks: track, source: send.source ?? null },
        recipients: recipients
          .filter((_, j) => outcomes[i][j] === null)
          .map((r) => ({ contactId: r.contactId, toAddress: r.email, toName: r.name, variables: r.variables })),
      });
    }
    const ids = await this.emails.insertContentsAndEmails(em, rows);
    const notBefore = await this.bookWorkflowMail(em, requests, ids);
    return outcomes.map((reasons, i) => {
      let next = 0;
      return reasons.map((reason): RecipientOutcome => {
        if (reason) return { skipped: reason };
        const heldUntil = notBefore[i]?.[next];
        return { emailId: ids[i][next++], ...(heldUntil ? { heldUntil } : {}) };
      });
    });
  }

  /**
   * Workflow mail from a warming domain books the first days with room under the cap (the insert
   * counted every other kind); what falls on a later day is held until that day starts. Per request,
   * per written email: its not-before time, or null.
   */
  private async bookWorkflowMail(em: EntityManager, requests: RecipientsRequest[], ids: string[][]): Promise<Array<Array<Date | null>>> {
    const out: Array<Array<Date | null>> = [];
    const held: Array<{ id: string; notBefore: Date }> = [];
    for (const [i, { projectId, send }] of requests.entries()) {
      if (!send.workflowExecutionId || ids[i].length === 0) {
        out.push([]);
        continue;
      }
      const days = await this.warmup.book(em, projectId, send.fromAddress, ids[i].length);
      days.forEach((notBefore, j) => notBefore && held.push({ id: ids[i][j], notBefore }));
      out.push(days);
    }
    await this.store.hold(em, held);
    return out;
  }

  /** An audience's one content row (its Liquid sources and headers), shared by all its emails and held by the audience (retention keeps it). */
  createContent(projectId: string, content: EmailContentInput, em: EntityManager): Promise<string> {
    return this.emails.insertContent(em, { ...content, projectId, audience: true });
  }

  /**
   * One keyset batch of an audience as email rows, set-based (one `INSERT … SELECT`), in the
   * caller's transaction (with its checkpoint). Rows are unique per (campaign, contact)
   * (`campaign_contacts`, written first in the same statement), so running a batch twice writes nothing twice. Contacts the
   * policy skips are written `skipped` with their reason, so the audience and what was dropped
   * stay visible. The contact's data is copied into `variables` in the same statement: the
   * pipeline then reads a group's contact data with its one load statement.
   *
   * The sender's warm-up cap applies to the batch as a set: it takes at most today's room (the
   * counters stay locked until the caller's commit) and adds what it wrote; 'held' when the day
   * is full and some of the audience remains (the rest waits for the next UTC day).
   */
  async queueForAudience(projectId: string, em: EntityManager, b: AudienceBatch): Promise<AudienceBatchResult | 'held'> {
    const warmup = await this.warmup.today(em, projectId, b.fromAddress);
    // A full day with nothing left still writes the batch: it finds the audience's end.
    if (warmup.room === 0 && (await this.emails.audienceRemains(projectId, { ...b, condition: b.wholeCondition ?? b.condition }, em))) return 'held';
    const track = await this.tracks(projectId, b, em);
    const result = await this.emails.insertAudienceBatch(projectId, { ...b, limit: Math.min(b.limit, warmup.room || b.limit) }, track, em);
    await this.warmup.add(em, warmup, result.queuedIds.length);
    return result;
  }

  /**
   * Account mail (verification, password reset): an email of no project, TRANSACTIONAL and
   * untracked, whose content arrives final (not read as Liquid). No recipient policy applies (it
   * has no project, so no contacts or suppressions) and no warm-up counts it (no project's domain
   * sends it). Written by the same statement as every email and enqueued at once.
   */
  async queueSystemMail(from: { email: string; name: string | null }, msg: SystemMessage): Promise<string> {
    const [ids] = await this.emails.insertContentsAndEmails(this.dataSource.manager, [
      {
        content: { projectId: null, templateId: null, subject: msg.subject, body: msg.html, text: msg.text, liquid: false, fromName: from.name, replyTo: null },
        emails: { projectId: null, templateId: null, type: 'TRANSACTIONAL', fromAddress: from.email, trackOpens: false, trackClicks: false },
        recipients: [{ contactId: null, toAddress: msg.to.trim().toLowerCase(), toName: null, variables: null }],
      },
    ]);
    await this.enqueueGrouped(ids, 'TRANSACTIONAL');
    return ids[0];
  }

  /**
   * Committed rows to the send queue in grouped jobs (`bulk`: behind transactional mail whatever
   * the type, as campaigns are); a failed enqueue is left to the sweep.
   */
  enqueueGrouped(emailIds: string[], type: EmailType, opts: { bulk?: boolean } = {}): Promise<void> {
    return this.queue.enqueueOrLeaveForSweep(emailIds, type, opts);
  }

  /** Committed rows, one job per email (job id = email id). */
  enqueue(emailIds: string[], type: EmailType): Promise<void> {
    return this.queue.enqueue(emailIds, type);
  }

  /** Read in the caller's transaction on a cache miss: nothing here may wait on a second connection while it is open. */
  private async tracks(projectId: string, send: EmailSend, em: EntityManager): Promise<boolean> {
    return trackingFor((await this.projects.get(projectId, em)).tracking, send.type, send.tracking);
  }
}

/** The email ids of these outcomes to enqueue now: those a warm-up cap holds wait for the sweep. */
export const dueEmailIds = (outcomes: RecipientOutcome[]): string[] => outcomes.flatMap((o) => ('emailId' in o && !o.heldUntil ? [o.emailId] : []));

/** The email ids of these outcomes, in order. */
export const emailIds = (outcomes: RecipientOutcome[]): string[] => outcomes.flatMap((o) => ('emailId' in o ? [o.emailId] : []));
