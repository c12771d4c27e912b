import { deleteUnreferencedContents } from './email-retention.repository';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { EmailStatus, EmailType } from './entities/email.entity';
import { insertEventsSql, EventRow, fromEventRow, StoredEvent } from '../events';
import { Batcher } from '../../platform/batching/batcher';
import { PriorityLane } from '../../platform/database/priority-lane';
import { affectedCount, returnedRows } from '../../platform/database/query-results';
import { handOverFactsSql, SUBSCRIPTION_TYPES } from './recipient-policy';
import { EMAIL_EVENT_COLUMNS, EmailEventRow } from './email-event-data';
import { LoadedEmail, LoadedRow, toLoaded } from './email-status.rows';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';

/**
 * The events of the emails `sent` recorded (none for account mail, which has no project), in the
 * statement's own round trip. clock_timestamp(): the events of one email keep their order (sent
 * before delivery).
 */
const SENT_EVENTS_SQL = insertEventsSql(
  { projectId: 's.project_id', contactId: 's.contact_id', name: "x.event->>'name'", data: "x.event->'data'", createdAt: 'clock_timestamp()' },
  `FROM sent s CROSS JOIN LATERAL jsonb_array_elements(s.events) WITH ORDINALITY AS x(event, n)
  WHERE s.project_id IS NOT NULL
  ORDER BY s.id, x.n`,
);

/**
 * A transition's guard on the email's current status, for statements that find their emails by
 * id. A plain `status = 'queued'` also matches the predicate of the partial indexes on unfinished
 * emails (`emails_unfinished_idx`, `emails_campaign_unfinished_idx`); the statistics of a table of
 * mostly finished mail put a row or two there, so the planner read every email of a campaign's
 * backlog (up to `CAMPAIGN_MAX_QUEUED`) to find the few a claim or a sent record updates: 10 ms
 * against 0.6 ms for a claim of 4 emails with 10,000 queued (bench/README, "Campaigns"). The
 * planner cannot match a CASE to an index predicate, so it takes the primary key. Batched
 * transitions also name their ids as an array (`e.id = ANY(…)`): the planner knows its length,
 * where it guesses 100 rows for a `jsonb_to_recordset` and would scan a small table instead.
 */
export const statusGuard = (condition: string): string => `(CASE WHEN ${condition} THEN true ELSE false END)`;

/** The pipeline's per-email statements, each run for a batch of emails (the Batchers below). */
const LOAD_SQL = `SELECT e.id, e.project_id, e.contact_id, e.template_id, e.campaign_id, e.type, e.from_address, e.to_address, e.to_name,
              e.variables, e.status, e.created_at, (e.lease_until IS NOT NULL AND e.lease_until > now()) AS lease_active,
              (e.not_before IS NOT NULL AND e.not_before > now()) AS held,
              e.track_opens, e.track_clicks, e.content_id, e.source,
              -- What the recipient policy (skipReason) needs now, for the mail that respects consent.
              ${handOverFactsSql('$2::text[]')},
              c.subject AS c_subject, c.body AS c_body, c.liquid AS c_liquid, c.markdown AS c_markdown, c.text AS c_text, c.from_name AS c_from_name,
              c.reply_to AS c_reply_to, c.headers AS c_headers, c.attachments AS c_attachments, c.topic_id AS c_topic_id
         FROM emails e LEFT JOIN email_contents c ON c.id = e.content_id
        WHERE e.id = ANY($1::uuid[])`;

const CLAIM_SQL = `UPDATE emails e SET status = 'sending', subject = v.subject, message_id = v.message_id, attempts = e.attempts + 1,
                lease_until = now() + make_interval(secs => $2), claim_token = v.token, updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, subject text, message_id text, token uuid)
          WHERE e.id = ANY($3::uuid[]) AND e.id = v.id AND ${statusGuard("e.status = 'queued' AND (e.not_before IS NULL OR e.not_before <= now())")} RETURNING e.id`;

const MARK_SENT_SQL = `WITH v AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, provider_message_id text, delivered boolean, events jsonb)
       ), sent AS (
         UPDATE emails e SET status = CASE WHEN v.delivered THEN 'delivered' ELSE 'sent' END, provider_message_id = v.provider_message_id,
                sent_at = now(), delivered_at = CASE WHEN v.delivered THEN now() ELSE e.delivered_at END,
                lease_until = NULL, error = NULL, updated_at = now()
           FROM v
          WHERE e.id = ANY($2::uuid[]) AND e.id = v.id AND ${statusGuard("e.status IN ('sending', 'uncertain')")}
         RETURNING e.id, e.project_id, e.contact_id, v.events
       ), ev AS (${SENT_EVENTS_SQL})
       SELECT (SELECT json_agg(id) FROM sent) AS ids, (SELECT json_agg(ev ORDER BY ev.created_at) FROM ev) AS events`;

export interface SentOutcome {
  subject: string;
  messageId: string;
  providerMessageId: string | null;
  delivered: boolean;
  /** Events stored in the same statement as the status (none for account mail). */
  events: Array<{ name: string; data: Record<string, unknown> }>;
}

export interface SentRecord {
  /** False when the email was no longer `sending` (another worker, or already recorded). */
  recorded: boolean;
  events: StoredEvent[];
}

/**
 * The email's state machine in SQL. Each transition names the states it leaves, so a late or
 * repeated job can never move an email backwards (e.g. a retry finding it already sent).
 *   queued → sending (claimed, with a lease) → sent | delivered | bounced | failed
 *   sending → queued (temporary failure, before a retry)
 *   queued → skipped | failed (before hand-over: suppressed, unrenderable)
 *   any sent state → bounced | complained | delivered (feedback, once each: the *_at column guards)
 * Every write of an email's status, counters and timestamps goes through this store.
 */
@Injectable()
export class EmailStatusStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
    private readonly lane: PriorityLane,
  ) {}

  /** Concurrent workers share round trips for the per-email reads and writes (adaptive batches). */
  private readonly loads = new Batcher<string, LoadedEmail | null>({ runBatch: (ids) => this.loadMany(ids), max: 200 });
  private readonly claims = new Batcher<{ id: string; subject: string; messageId: string; token: string }, boolean>({ runBatch: (items) => this.claimMany(items), max: 200 });
  /**
   * An outcome is written as soon as its hand-over ends, on the priority lane's own connections,
   * never behind the pool's other work: the email stays `sending` (it ends `uncertain` after a
   * crash, though it arrived) until it lands. Outcomes that end while the lane's statements are in
   * flight share the next one.
   */
  private readonly sents = new Batcher<{ id: string; outcome: SentOutcome }, SentRecord>({ runBatch: (items) => this.markSentMany(items), max: 200, maxInFlight: PriorityLane.SIZE });

  load(emailId: string): Promise<LoadedEmail | null> {
    return this.loads.run(emailId);
  }

  private async loadMany(ids: string[]): Promise<Array<LoadedEmail | null>> {
    const rows: LoadedRow[] = await this.dataSource.query(LOAD_SQL, [ids, SUBSCRIPTION_TYPES]);
    const byId = new Map(rows.map((r) => [r.id, toLoaded(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * queued → sending with a lease and the claim's own `token`; false when another worker got there
   * first or it is no longer queued.
   */
  claim(emailId: string, subject: string, messageId: string, token: string): Promise<boolean> {
    return this.claims.run({ id: emailId, subject, messageId, token });
  }

  /**
   * sending → queued, only while the claim is still the one written with `token`: the claiming
   * worker takes back a claim whose statement lost its answer (it may have committed) before
   * anything was handed over. True when it was put back.
   */
  async unclaim(emailId: string, token: string): Promise<boolean> {
    const rows = returnedRows<{ id: string }>(
      await this.dataSource.query(
        `UPDATE emails SET status = 'queued', lease_until = NULL, claim_token = NULL, updated_at = now()
          WHERE id = $1 AND claim_token = $2 AND ${statusGuard("status = 'sending'")} RETURNING id`,
        [emailId, token],
      ),
    );
    return rows.length > 0;
  }

  private async claimMany(items: Array<{ id: string; subject: string; messageId: string; token: string }>): Promise<boolean[]> {
    const { unique, winners } = firstOfEachId(items);
    // In id order, whatever plan the statement takes: the order a cancel locks a campaign's queued emails in (`skipQueuedOfCampaign`).
    unique.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = returnedRows<{ id: string }>(
      await this.dataSource.query(CLAIM_SQL, [
        JSON.stringify(unique.map((i) => ({ id: i.id, subject: i.subject, message_id: i.messageId, token: i.token }))),
        // How long a worker may hold an email between claiming it and recording the outcome.
        this.config.email.sendLeaseSeconds,
        unique.map((i) => i.id),
      ]),
    );
    const claimed = new Set(rows.map((r) => r.id));
    return items.map((item, i) => winners.has(i) && claimed.has(item.id));
  }

  /** sending → sent | delivered, with the outcome's events in the same statement (one commit for both). */
  markSent(emailId: string, outcome: SentOutcome): Promise<SentRecord> {
    return this.sents.run({ id: emailId, outcome });
  }

  private async markSentMany(items: Array<{ id: string; outcome: SentOutcome }>): Promise<SentRecord[]> {
    const { unique, winners } = firstOfEachId(items);
    const rows = await this.lane.query<{ ids: string[] | null; events: EventRow[] | null }>(MARK_SENT_SQL, [
      JSON.stringify(unique.map((i) => ({ id: i.id, provider_message_id: i.outcome.providerMessageId, delivered: i.outcome.delivered, events: i.outcome.events }))),
      unique.map((i) => i.id),
    ]);
    const updated = new Set(rows[0]?.ids ?? []);
    const byEmail = new Map<string, StoredEvent[]>();
    for (const row of rows[0]?.events ?? []) {
      const event = fromEventRow(row);
      const emailId = String(event.data.emailId);
      const list = byEmail.get(emailId);
      if (list) list.push(event);
      else byEmail.set(emailId, [event]);
    }
    return items.map((item, i) => {
      const recorded = winners.has(i) && updated.has(item.id);
      return { recorded, events: recorded ? (byEmail.get(item.id) ?? []) : [] };
    });
  }

  /** A permanent refusal at hand-over (SMTP 5xx): the email bounced. */
  async markBounced(emailId: string, error: string): Promise<boolean> {
    const rows = await this.lane.query(
      `UPDATE emails SET status = 'bounced', bounced_at = now(), bounce_type = 'Permanent', error = $2,
              lease_until = NULL, updated_at = now()
        WHERE id = $1 AND ${statusGuard("status = 'sending'")} RETURNING id`,
      [emailId, error],
    );
    return rows.length > 0;
  }

  /** A permanent bounce reported later (SNS): once per email, whatever its status. */
  async markBouncedByFeedback(emailId: string, at: Date, error: string | null, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `UPDATE emails SET status = 'bounced', bounced_at = $2, bounce_type = 'Permanent', error = COALESCE($3, error), updated_at = now()
        WHERE id = $1 AND bounced_at IS NULL RETURNING id`,
      [emailId, at, error],
    );
    return affectedCount(rows) > 0;
  }

  /** A complaint (feedback loop): once per email. */
  async markComplained(emailId: string, at: Date, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `UPDATE emails SET status = 'complained', complained_at = $2, updated_at = now() WHERE id = $1 AND complained_at IS NULL RETURNING id`,
      [emailId, at],
    );
    return affectedCount(rows) > 0;
  }

  /** A delivery report: once per email, never downgrading a later state (a bounce or complaint that arrived first). */
  async markDeliveredByFeedback(emailId: string, at: Date, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `UPDATE emails SET delivered_at = $2, status = CASE WHEN status IN ('queued', 'sending', 'sent', 'uncertain') THEN 'delivered' ELSE status END, updated_at = now()
        WHERE id = $1 AND delivered_at IS NULL RETURNING id`,
      [emailId, at],
    );
    return affectedCount(rows) > 0;
  }

  /**
   * An open or a click of a project email, by id alone (a signed tracking link carries only the
   * id): the first sets the timestamp, the counter counts every one. The email's event columns,
   * or null when no project email has this id.
   */
  async countHitAnyProject(emailId: string, kind: 'open' | 'click'): Promise<EmailEventRow | null> {
    const statement =
      kind === 'open'
        ? `UPDATE emails SET open_count = open_count + 1, opened_at = COALESCE(opened_at, now()) WHERE id = $1 AND project_id IS NOT NULL RETURNING ${EMAIL_EVENT_COLUMNS}`
        : `UPDATE emails SET click_count = click_count + 1, clicked_at = COALESCE(clicked_at, now()) WHERE id = $1 AND project_id IS NOT NULL RETURNING ${EMAIL_EVENT_COLUMNS}`;
    return returnedRows<EmailEventRow>(await this.dataSource.query(statement, [emailId]))[0] ?? null;
  }

  /**
   * An interrupted hand-over (a crash or an outage while the transport had the message): it may or
   * may not have arrived, and is never handed over again by itself. A late outcome write
   * (`markSent`) still turns it into `sent`.
   */
  async markUncertain(emailId: string, error: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE emails SET status = 'uncertain', error = $2, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND ${statusGuard("status = 'sending'")} RETURNING id`,
      [emailId, error],
    );
    return affectedCount(rows) > 0;
  }

  /**
   * uncertain → queued for a campaign's emails: the user's explicit choice to send again what may
   * already have arrived (at-least-once). Returns the emails put back, for their jobs.
   */
  async requeueUncertain(projectId: string, campaignId: string): Promise<Array<{ id: string; type: EmailType }>> {
    return returnedRows<{ id: string; type: EmailType }>(
      await this.dataSource.query(
        `UPDATE emails SET status = 'queued', error = NULL, lease_until = NULL, updated_at = now()
          WHERE project_id = $1 AND campaign_id = $2 AND status = 'uncertain' RETURNING id, type`,
        [projectId, campaignId],
      ),
    );
  }

  /** Terminal failure: retries exhausted, unrenderable, or too big. */
  async markFailed(emailId: string, error: string, from: EmailStatus[] = ['queued', 'sending']): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE emails SET status = 'failed', failed_at = now(), error = $2, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND ${statusGuard('status = ANY($3::text[])')} RETURNING id`,
      [emailId, error, from],
    );
    return affectedCount(rows) > 0;
  }

  async markSkipped(emailId: string, reason: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE emails SET status = 'skipped', error = $2, updated_at = now() WHERE id = $1 AND ${statusGuard("status = 'queued'")} RETURNING id`,
      [emailId, reason],
    );
    return affectedCount(rows) > 0;
  }

  /**
   * A contact's erasure (its `emails` section): every email to it loses its recipient (address,
   * name), the values it was rendered with, its rendered subject and any address in its error; a
   * still-queued one is skipped (`erased`). Its own content row goes too, once no email refers to
   * it (`deleteUnreferencedContents`: a content row still referenced is never deleted); a
   * campaign's shared content stays, as does the content of an email being handed over. The rows
   * stay, with their statuses and timestamps, for the aggregates. Idempotent; both statements in
   * one transaction (the caller's with `manager`), so no content row is left unreferenced.
   */
  async eraseRecipient(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    const run = async (em: EntityManager) => {
      const released: Array<{ content_id: string }> = await em.query(
        `WITH target AS (
           SELECT id, content_id, campaign_id, status FROM emails WHERE project_id = $1 AND contact_id = $2 FOR UPDATE
         ), erased AS (
           UPDATE emails e SET to_address = '', to_name = NULL, variables = NULL, subject = NULL,
                  status = CASE WHEN t.status = 'queued' THEN 'skipped' ELSE e.status END,
                  error = CASE WHEN t.status = 'queued' THEN 'erased' WHEN t.status = 'skipped' THEN e.error
                               ELSE regexp_replace(e.error, '[^\\s<>"]+@[^\\s<>"]+', '[erased]', 'g') END,
                  content_id = CASE WHEN t.campaign_id IS NULL AND t.status <> 'sending' THEN NULL ELSE e.content_id END,
                  updated_at = now()
             FROM target t WHERE e.id = t.id
           RETURNING t.content_id AS released, t.campaign_id, t.status
         )
         SELECT DISTINCT released AS content_id FROM erased WHERE campaign_id IS NULL AND status <> 'sending' AND released IS NOT NULL`,
        [projectId, contactId],
      );
      await deleteUnreferencedContents(
        em,
        projectId,
        released.map((r) => r.content_id),
      );
    };
    await (manager ? run(manager) : this.dataSource.transaction(run));
  }

  /** Workflow mail a warm-up cap pushed to a later day (`WarmupLedger.book`), in the writer's transaction. */
  async hold(em: EntityManager, held: Array<{ id: string; notBefore: Date }>): Promise<void> {
    if (held.length === 0) return;
    await em.query(`UPDATE emails e SET not_before = h.not_before FROM jsonb_to_recordset($1::jsonb) AS h(id uuid, not_before timestamptz) WHERE e.id = h.id`, [
      JSON.stringify(held.map((h) => ({ id: h.id, not_before: h.notBefore.toISOString() }))),
    ]);
  }

  /**
   * queued → skipped for every still-queued email of a campaign (its cancel), in the caller's
   * transaction: nothing more of it leaves (the claim needs `queued`). The rows are locked in id
   * order first, the order the claim's primary-key scan of `id = ANY(…)` locks its batch in: two
   * statements that lock in one order only wait for each other. In the campaign index's order the
   * cancel and a claim deadlocked, and PostgreSQL needs `deadlock_timeout` (1 s) to see that, so a
   * loaded machine's cancel spent its request deadline on retries and answered 503.
   */
  async skipQueuedOfCampaign(em: EntityManager, projectId: string, campaignId: string, reason: string): Promise<void> {
    await em.query(
      `WITH locked AS (
         SELECT id FROM emails WHERE project_id = $1 AND campaign_id = $2 AND status = 'queued' ORDER BY id FOR UPDATE
       )
       UPDATE emails e SET status = 'skipped', error = $3, updated_at = now() FROM locked WHERE e.id = locked.id AND e.status = 'queued'`,
      [projectId, campaignId, reason],
    );
  }

  /** sending → queued after a temporary failure: nothing was accepted, so the retry may send. */
  async release(emailId: string, error: string): Promise<void> {
    await this.lane.query(
      `UPDATE emails SET status = 'queued', error = $2, lease_until = NULL, updated_at = now() WHERE id = $1 AND ${statusGuard("status = 'sending'")}`,
      [emailId, error],
    );
  }

}

/** The same email twice in one batch (a duplicated job) must not let both callers win. */
function firstOfEachId<T extends { id: string }>(items: T[]): { unique: T[]; winners: Set<number> } {
  const seen = new Set<string>();
  const winners = new Set<number>();
  const unique: T[] = [];
  items.forEach((item, i) => {
    if (seen.has(item.id)) return;
    seen.add(item.id);
    winners.add(i);
    unique.push(item);
  });
  return { unique, winners };
}
