import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Batcher } from '../../../platform/batching/batcher';
import { FieldError, validationError } from '../../../platform/http/app-error';
import { ContactsService, DoubleOptInService, normalizeEmail, UpsertContactInput, preservingSubscription, subscribesWhen, withoutSubscription, upsertKey } from '../../contacts';
import { DomainsService } from '../../domains';
import { BillingService } from '../../billing';
import { projectDisabled } from '../../projects';
import type { Template } from '../../templates';
import { TemplatesService, LiquidCheck } from '../../templates';
import { EmailQueueFacade, emailIds, RecipientsRequest } from '../email-queue.facade';
import type { EmailType } from '../entities/email.entity';
import { ProjectCache } from '../engine/project-cache';
import { Recipient, recipientVariables, SEND_LIMITS, SendRequest } from '../send/send-request';
import type { SendResult, SkippedRecipient } from '../send/send.response';
import { isRetryableConflict } from '../../../platform/database/pg-errors';
import type { IdempotencyClaim } from '../../../platform/http/idempotency/idempotency-claim';
import { idempotencyKeyReused } from '../../../platform/http/idempotency/idempotency.errors';
import { IdempotencyService } from '../../../platform/http/idempotency/idempotency.service';

/** A validated request, ready to be written. */
interface SendItem {
  projectId: string;
  req: SendRequest;
  send: ResolvedSend;
  /** Its Idempotency-Key, claimed in the transaction that writes its emails. */
  claim?: IdempotencyClaim;
  /** Double opt-in: its recipients are written without subscribing and asked to confirm after the commit. */
  confirm: boolean;
}

/**
 * What a request wrote: its result items (recipient order), skipped recipients, the new email
 * ids; or, when its Idempotency-Key belongs to a request that committed first, nothing.
 */
type Written = SendResult & { ids: string[]; contactIds: string[] } | { keyTaken: true };


/** The recipient as a contact: `to.name` becomes `data.name` only where the contact has none (never overwritten by a send). */
const contactInput = (req: SendRequest, to: Recipient, confirm = false): UpsertContactInput => {
  const input = preservingSubscription<UpsertContactInput>(
    { email: to.email, data: req.data, dataDefaults: to.name ? { name: to.name } : undefined, topics: req.topics, subscribed: req.subscribed, defaultSubscribed: false, source: 'send' },
    req.preserveExistingSubscription,
  );
  return confirm ? withoutSubscription(input, subscribesWhen(input) ?? 'always') : input;
};

/** The façade's request for one validated send (its recipients are added once the contacts are upserted). */
function emailSend(req: SendRequest, send: ResolvedSend): RecipientsRequest['send'] {
  return {
    type: send.type,
    fromAddress: send.from.email,
    tracking: req.tracking,
    source: req.relay?.source,
    content: {
      templateId: send.template?.id ?? null,
      subject: send.subject,
      body: send.body,
      markdown: send.markdown,
      liquid: !req.relay,
      text: req.relay?.text ?? null,
      fromName: send.from.name,
      replyTo: send.replyTo,
      headers: req.headers,
      attachments: req.attachments,
    },
  };
}

interface ResolvedSend {
  template: Template | null;
  type: EmailType;
  subject: string;
  body: string;
  /** The request's own body is markdown (`type: "markdown"`); a template's body is HTML. */
  markdown: boolean;
  from: Recipient;
  replyTo: string | null;
}

const FROM_REQUIRED =
  'from is required: give from, use a template with a sender, or set the project\'s defaultFrom ' +
  '(PATCH /users/@me/projects/:id {"defaultFrom": {"email": "hello@your-verified-domain", "name": "…"}}, or the dashboard\'s project settings)';

/** Emails written per project (what billing counts). */
function emailsPerProject(items: Array<{ projectId: string; ids: string[] }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { projectId, ids } of items) counts.set(projectId, (counts.get(projectId) ?? 0) + ids.length);
  return counts;
}

/**
 * `POST /v1/send`: everything that can reject the request (project state, template, sender
 * domain, Liquid syntax, message size) is checked before anything is written; then contacts,
 * the content row and one `queued` email per recipient are written in one transaction, and
 * the jobs are enqueued after it commits. Concurrent requests share that transaction (`Batcher`
 * with the recipients as keys); a batch that fails runs each of its requests alone.
 */
@Injectable()
export class SendEmails {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectCache,
    private readonly templates: TemplatesService,
    private readonly liquid: LiquidCheck,
    private readonly domains: DomainsService,
    private readonly contacts: ContactsService,
    private readonly optIns: DoubleOptInService,
    private readonly emails: EmailQueueFacade,
    private readonly billing: BillingService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Concurrent requests share one transaction (README, `POST /v1/send`). */
  private readonly batcher = new Batcher<SendItem, Written>({
    // Two requests with one Idempotency-Key never share a transaction: the second waits for the first's outcome.
    keys: ({ projectId, req, claim }) => [
      ...req.to.map((to) => upsertKey({ projectId, email: normalizeEmail(to.email) })),
      ...(claim ? [`idempotency\n${projectId}\n${claim.key}`] : []),
    ],
    runBatch: (items) => this.write(items),
    runOne: async (item) => (await this.write([item]))[0],
    retryable: isRetryableConflict,
    max: 50,
    maxKeys: 500,
    maxInFlight: 2,
  });

  async execute(projectId: string, req: SendRequest, claim?: IdempotencyClaim): Promise<SendResult> {
    // Cached for a few seconds: a project disabled this instant may still send for that long.
    const project = await this.projects.get(projectId);
    if (project.disabled) throw projectDisabled(project.disabledReason);
    const send = await this.resolve(projectId, req);
    await this.domains.assertSenderAllowed(projectId, send.from.email);

    // Double opt-in (`doubleOptIn: true` with `subscribed: true`, the only way a send subscribes): decided once for every recipient.
    const confirm = (await this.optIns.optIn(projectId, contactInput(req, req.to[0]), { requested: req.doubleOptIn })).confirm !== null;
    const written = await this.batcher.run({ projectId, req, send, claim, confirm });
    if ('keyTaken' in written) throw idempotencyKeyReused(claim!.key, await this.idempotency.find(projectId, claim!.key));
    await this.emails.enqueueGrouped(written.ids, send.type);
    if (confirm) for (const contactId of written.contactIds) await this.optIns.requestConfirmationOf(projectId, contactId);
    return { emails: written.emails, skipped: written.skipped, timestamp: written.timestamp };
  }

  /**
   * The requests of a batch (or one request alone) in one transaction: one upsert statement for
   * every recipient of every request, one suppression query, one statement for every content row
   * and email row. Throws when the transaction failed (the batcher then runs each request alone).
   * Idempotency-Keys are claimed first: a request whose key a committed request holds writes nothing.
   */
  private async write(batch: SendItem[]): Promise<Written[]> {
    let afterCommit = () => {};
    const written = await this.dataSource.transaction(async (em) => {
      const keyed = batch.filter((item) => item.claim);
      const claimed = await this.idempotency.claimIn(em, keyed.map((item) => item.claim!));
      const refused = new Set(keyed.filter((_, i) => !claimed[i]));
      const items = batch.filter((item) => !refused.has(item));
      const all = items.flatMap(({ projectId, req, confirm }) => req.to.map((to) => ({ projectId, input: contactInput(req, to, confirm) })));
      const contacts = await this.contacts.upsertBatchIn(all, em);
      afterCommit = contacts.afterCommit;
      let next = 0;
      const requests = items.map(({ projectId, req, send }) => ({
        projectId,
        send: emailSend(req, send),
        recipients: req.to.map((to) => {
          const { contact, variables } = contacts.results[next++];
          return { contactId: contact.id, email: contact.email, name: to.name, subscribed: contact.subscribed, snoozedUntil: contact.snoozedUntil, variables: recipientVariables(req, to, variables) };
        }),
      }));
      const outcomes = await this.emails.queueForRecipientsIn(em, requests);
      const ids = outcomes.map(emailIds);
      const timestamp = new Date().toISOString();
      const results = new Map<SendItem, Written>();
      const answers: Parameters<IdempotencyService['recordIn']>[1] = [];
      for (const [i, { recipients }] of requests.entries()) {
        const emails: SendResult['emails'] = [];
        const skipped: SkippedRecipient[] = [];
        for (const [j, outcome] of outcomes[i].entries()) {
          if ('skipped' in outcome) skipped.push({ to: items[i].req.to[j].email, reason: outcome.skipped });
          else emails.push({ contact: { id: recipients[j].contactId!, email: recipients[j].email }, email: outcome.emailId });
        }
        const claim = items[i].claim;
        if (claim) answers.push({ claim, statusCode: 200, response: { success: true, data: { emails, skipped, timestamp } } });
        results.set(items[i], { emails, skipped, timestamp, ids: ids[i], contactIds: recipients.map((r) => r.contactId!) });
      }
      // The keyed requests' answers in one statement, before the usage row's lock below.
      await this.idempotency.recordIn(em, answers);
      // Counted in this transaction: over the cap it throws 402 and nothing of the batch is written.
      // Last, so the project's usage row stays locked only from here to the commit: concurrent
      // batches (other processes' included) wait on it for that long and no longer.
      for (const [projectId, count] of emailsPerProject(items.map(({ projectId }, i) => ({ projectId, ids: ids[i] })))) {
        await this.billing.consume(em, projectId, 'transactional', count);
      }
      return batch.map((item): Written => results.get(item) ?? { keyTaken: true });
    });
    afterCommit();
    return written;
  }

  /**
   * Template defaults overridden by explicit fields, the sender falling back to the project's
   * `defaultFrom`; every remaining problem is one 422 item.
   */
  private async resolve(projectId: string, req: SendRequest): Promise<ResolvedSend> {
    const template = req.template ? await this.templates.findOne(projectId, req.template) : null;
    const problems: FieldError[] = [];
    const subject = req.subject ?? template?.subject;
    const body = req.body ?? template?.body;
    if (subject === undefined) problems.push({ field: 'subject', code: 'required', message: 'subject is required unless a template is given' });
    if (body === undefined) problems.push({ field: 'body', code: 'required', message: 'body is required unless a template is given' });
    let from: Recipient | undefined =
      req.from ?? (template ? { email: template.fromAddress, name: template.fromName } : undefined) ?? (await this.projects.defaultFrom(projectId));
    if (!from) problems.push({ field: 'from', code: 'required', message: FROM_REQUIRED });
    else if (!from.name && req.name) from = { ...from, name: req.name };
    if (!req.relay) problems.push(...(await this.liquid.problems({ subject: req.subject, body: req.body })));
    const estimate = (body?.length ?? 0) * 2 + (subject?.length ?? 0) + Math.ceil((req.attachmentBytes * 4) / 3) * 1.03 + 4096;
    if (estimate > SEND_LIMITS.messageBytes) {
      problems.push({ field: 'attachments', code: 'too_big', message: `the whole message would exceed ${SEND_LIMITS.messageBytes / 1024 / 1024} MB` });
    }
    if (problems.length) throw validationError(problems);
    return {
      template,
      type: template?.type ?? 'TRANSACTIONAL',
      subject: subject!,
      body: body!,
      markdown: req.type === 'markdown' && req.body !== undefined,
      from: from!,
      replyTo: req.reply ?? template?.replyTo ?? null,
    };
  }
}
