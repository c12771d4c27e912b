import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { raw, sql } from '../../platform/database/sql-fragment';
import { returnedRows } from '../../platform/database/query-results';
import { StatementRunner } from '../../platform/database/statement-runner';
import { contactEmailSql } from '../contacts';
import { projectEventsBetweenSql } from '../events';
import type { WebhookAttempt } from './entities/webhook-attempt.entity';
import type { DeliveryKind, DeliveryStatus, WebhookDelivery } from './entities/webhook-delivery.entity';
import { nameMatchesSql } from './sql/event-patterns.sql';

/** A delivery claimed for an attempt, with what the attempt needs of its endpoint. */
export interface ClaimedDelivery {
  id: string;
  project_id: string;
  endpoint_id: string;
  event_id: string;
  kind: DeliveryKind;
  body: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
  url: string;
  /** Encrypted. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** What one attempt came to, as `recordOutcomes` writes it. */
export interface AttemptOutcome {
  id: string;
  /** The attempt's number: its outcome is written only while the delivery is still at that attempt. */
  attempt: number;
  attemptedAt: Date;
  ok: boolean;
  /** A 410: the endpoint is disabled GONE at once. */
  gone: boolean;
  /** When the next attempt is due; null when this one was the last (failed for good) or succeeded. */
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

/** A delivery as an outcome left it. */
export interface RecordedOutcome {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
}

/** A fan-out row: one event for one endpoint (`event` indexes the batch's events). */
export interface FanOut {
  events: Array<{ id: string; type: string; body: string }>;
  pairs: Array<{ endpointId: string; event: number }>;
}

interface DeliveryDbRow {
  id: string;
  project_id: string;
  endpoint_id: string;
  event_id: string;
  kind: DeliveryKind;
  type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date;
  created_key?: string;
}

const toDelivery = (r: DeliveryDbRow): WebhookDelivery => ({
  id: r.id,
  projectId: r.project_id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  kind: r.kind,
  type: r.type,
  body: r.body,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastAttemptAt: r.last_attempt_at,
  responseStatus: r.response_status,
  durationMs: r.duration_ms,
  error: r.error,
  createdAt: r.created_at,
});

/** Columns of a list page (the body stays out of lists). */
const LIST_COLUMNS = `id, project_id, endpoint_id, event_id, kind, type, '' AS body, status, attempts, next_attempt_at, last_attempt_at,
  response_status, duration_ms, error, created_at, created_at::text AS created_key`;

/**
 * The state machine of deliveries and their attempts: every write of `webhook_deliveries` and
 * `webhook_attempts`. A delivery is `pending` until an attempt succeeds or the last one fails;
 * an attempt claims it by pushing `next_attempt_at` forward as a lease, so a duplicate job or a
 * second process finds nothing to do, and a worker that dies mid-attempt leaves it due again
 * once the lease ends (the sweep finds it).
 */
@Injectable()
export class DeliveriesStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
  ) {}

  /**
   * The fan-out's deliveries in one statement: one per (enabled endpoint, event), due `now` (due
   * times are always this process's clock, the one claims compare with); an event the outbox
   * hands on again makes none (`webhook_deliveries_event_key`). The deliveries inserted, with their projects.
   */
  async insertForEvents(projectRows: FanOut, now: Date): Promise<Array<{ id: string; project_id: string }>> {
    if (projectRows.pairs.length === 0) return [];
    const { events, pairs } = projectRows;
    const rows = await this.statements.run<{ id: string; project_id: string }>(
      `WITH ev AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS ev(event_id, type, body, i))
       INSERT INTO webhook_deliveries (project_id, endpoint_id, event_id, kind, type, body, next_attempt_at)
       SELECT w.project_id, w.id, ev.event_id, 'event', ev.type, ev.body, $6::timestamptz
         FROM unnest($4::uuid[], $5::int[]) WITH ORDINALITY AS p(endpoint_id, i, n)
         JOIN ev ON ev.i = p.i
         JOIN webhook_endpoints w ON w.id = p.endpoint_id AND w.enabled
        ORDER BY p.n
       ON CONFLICT (endpoint_id, event_id) WHERE kind = 'event' DO NOTHING
       RETURNING id, project_id`,
      [events.map((e) => e.id), events.map((e) => e.type), events.map((e) => e.body), pairs.map((p) => p.endpointId), pairs.map((p) => String(p.event + 1)), now],
    );
    return rows;
  }

  /** Pending deliveries per project of these endpoints, each endpoint's counted up to `cap` (an index range per endpoint). */
  async backlogOfEndpoints(endpointIds: string[], cap: number): Promise<Map<string, number>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await this.statements.run<{ project_id: string; n: number }>(
      `SELECT w.project_id, sum(b.n)::int AS n FROM webhook_endpoints w
         CROSS JOIN LATERAL (SELECT count(*) AS n FROM (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'pending' LIMIT $2) x) b
        WHERE w.id = ANY($1::uuid[]) GROUP BY w.project_id`,
      [endpointIds, cap],
    );
    return new Map(rows.map((r) => [r.project_id, r.n]));
  }

  /**
   * A replay: one new delivery per event of the project recorded in [since, until) whose name
   * matches the patterns, bodies built in SQL, in one `INSERT … SELECT` over the events module's
   * row source. In one transaction holding the endpoint's row, so concurrent replays of an
   * endpoint queue one after the other: nothing is inserted while a replay of the endpoint is
   * still pending (`pending`), nor when more than `max` events match (`tooMany`, how many);
   * otherwise the ids inserted, in event order.
   */
  insertReplay(
    projectId: string,
    endpointId: string,
    patterns: string[],
    window: { since: Date; until: Date },
    max: number,
    now: Date,
  ): Promise<{ ids: string[] } | { pending: true } | { tooMany: number }> {
    const { since, until } = window;
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT 1 FROM webhook_endpoints WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, endpointId]);
      const pending: unknown[] = await m.query(
        `SELECT 1 FROM webhook_deliveries WHERE project_id = $1 AND endpoint_id = $2 AND kind = 'replay' AND status = 'pending' LIMIT 1`,
        [projectId, endpointId],
      );
      if (pending.length > 0) return { pending: true as const };
      const matching = sql`SELECT count(*)::int AS n FROM (${projectEventsBetweenSql(projectId, since, until)}) e WHERE ${nameMatchesSql(raw('e.name'), patterns)}`;
      const [{ n }]: Array<{ n: number }> = await m.query(matching.text, matching.values);
      if (n > max) return { tooMany: n };
      const statement = sql`INSERT INTO webhook_deliveries (project_id, endpoint_id, event_id, kind, type, body, next_attempt_at)
        SELECT ${projectId}::uuid, ${endpointId}::uuid, e.id, 'replay', e.name, ${raw(replayBodySql())}, ${now}::timestamptz
          FROM (${projectEventsBetweenSql(projectId, since, until)}) e
          LEFT JOIN LATERAL (SELECT ${raw(contactEmailSql('e.project_id', 'e.contact_id'))} AS email) ce ON true
         WHERE ${nameMatchesSql(raw('e.name'), patterns)}
         ORDER BY e.created_at, e.id
        RETURNING id`;
      const rows: Array<{ id: string }> = returnedRows(await m.query(statement.text, statement.values));
      return { ids: rows.map((r) => r.id) };
    });
  }

  /** A test delivery, claimed for its one attempt (made by the caller now). */
  async insertClaimedTest(projectId: string, endpointId: string, eventId: string, body: string, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    const rows: ClaimedDelivery[] = await this.dataSource.query(
      `WITH d AS (
         INSERT INTO webhook_deliveries (project_id, endpoint_id, event_id, kind, type, body, attempts, next_attempt_at, last_attempt_at)
         SELECT w.project_id, w.id, $3, 'test', 'webhook.test', $4, 1, $6, $5 FROM webhook_endpoints w WHERE w.project_id = $1 AND w.id = $2
         RETURNING *)
       SELECT d.id, d.project_id, d.endpoint_id, d.event_id, d.kind, d.body, d.attempts, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
         FROM d JOIN webhook_endpoints w ON w.id = d.endpoint_id`,
      [projectId, endpointId, eventId, body, now, leaseUntil],
    );
    return rows[0] ?? null;
  }

  /**
   * Claims the due pending deliveries among `ids` whose endpoint is enabled: one attempt more,
   * and `next_attempt_at` pushed to `leaseUntil`. A delivery already claimed, finished or not yet
   * due is left out (a duplicate job does nothing). Due allows 2 s for the queue's delay timer.
   */
  claim(ids: string[], now: Date, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.statements.run<ClaimedDelivery>(
      `UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = $3::timestamptz, last_attempt_at = $2::timestamptz
         FROM webhook_endpoints w
        WHERE d.id = ANY($1::uuid[]) AND d.status = 'pending' AND d.next_attempt_at <= $2::timestamptz + interval '2 seconds'
          AND w.id = d.endpoint_id AND w.enabled
       RETURNING d.id, d.project_id, d.endpoint_id, d.event_id, d.kind, d.body, d.attempts, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at`,
      [ids, now, leaseUntil],
    );
  }

  /**
   * Writes attempts' outcomes in one statement: an attempts row each; the delivery's status
   * (only while it is still at that attempt, so a late answer never overwrites a newer one); the
   * endpoints' success clock and failing clock; a 410 disables its endpoint GONE and fails its
   * other pending deliveries. Returns the deliveries written, with their new state.
   */
  recordOutcomes(outcomes: AttemptOutcome[]): Promise<RecordedOutcome[]> {
    if (outcomes.length === 0) return Promise.resolve([]);
    const payload = JSON.stringify(
      outcomes.map((o) => ({
        id: o.id,
        attempt: o.attempt,
        attempted_at: o.attemptedAt.toISOString(),
        ok: o.ok,
        gone: o.gone,
        next_at: o.nextAttemptAt?.toISOString() ?? null,
        response_status: o.responseStatus,
        response_headers: o.responseHeaders,
        response_body: o.responseBody,
        duration_ms: o.durationMs,
        error: o.error,
      })),
    );
    return this.statements.run(
      `WITH o AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS o(id uuid, attempt int, attempted_at timestamptz, ok boolean, gone boolean, next_at timestamptz,
           response_status int, response_headers jsonb, response_body text, duration_ms int, error text)
       ), d AS (
         UPDATE webhook_deliveries d
            SET status = CASE WHEN o.ok THEN 'succeeded' WHEN o.next_at IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = CASE WHEN o.ok THEN NULL ELSE o.next_at END,
                last_attempt_at = o.attempted_at, response_status = o.response_status, duration_ms = o.duration_ms, error = o.error
           FROM o
          WHERE d.id = o.id AND d.attempts = o.attempt AND d.status = 'pending'
         RETURNING d.id, d.endpoint_id, d.status, d.attempts, d.next_attempt_at
       ), a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, response_status, response_headers, response_body, duration_ms, error)
         SELECT o.id, o.attempt, o.attempted_at, o.response_status, o.response_headers, o.response_body, o.duration_ms, o.error
           FROM o WHERE EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.id = o.id)
       ), e AS (
         SELECT d.endpoint_id, bool_or(o.ok) AS any_ok, max(o.attempted_at) FILTER (WHERE o.ok) AS ok_at,
                min(o.attempted_at) FILTER (WHERE NOT o.ok) AS fail_at, bool_or(o.gone) AS gone
           FROM d JOIN o ON o.id = d.id GROUP BY d.endpoint_id
       ), w AS (
         UPDATE webhook_endpoints w
            SET last_success_at = CASE WHEN e.any_ok THEN greatest(w.last_success_at, e.ok_at) ELSE w.last_success_at END,
                failing_since = CASE WHEN e.any_ok THEN NULL ELSE coalesce(w.failing_since, e.fail_at) END,
                enabled = w.enabled AND NOT e.gone,
                disabled_reason = CASE WHEN e.gone AND w.enabled THEN 'GONE' ELSE w.disabled_reason END,
                updated_at = CASE WHEN e.gone AND w.enabled THEN now() ELSE w.updated_at END
           FROM e
          WHERE w.id = e.endpoint_id
            -- A success moves the clock only when it says something new (one write a second at most per endpoint).
            AND (e.gone OR (e.any_ok AND (w.failing_since IS NOT NULL OR w.last_success_at IS NULL OR w.last_success_at < e.ok_at - interval '1 second'))
                 OR (NOT e.any_ok AND w.failing_since IS NULL))
         RETURNING w.id, e.gone
       ), g AS (
         UPDATE webhook_deliveries x SET status = 'failed', next_attempt_at = NULL, error = 'endpoint disabled: it answered 410 Gone'
          WHERE x.endpoint_id IN (SELECT id FROM w WHERE gone) AND x.status = 'pending' AND NOT (x.id IN (SELECT id FROM o))
       )
       SELECT id, status, attempts, next_attempt_at FROM d`,
      [payload],
    );
  }

  /** Ends the pending deliveries of these endpoints `failed` (the endpoint was disabled): a disabled endpoint receives nothing. */
  async failPendingOfEndpoints(endpointIds: string[], error: string): Promise<void> {
    if (endpointIds.length === 0) return;
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = $2 WHERE endpoint_id = ANY($1::uuid[]) AND status = 'pending'`,
      [endpointIds, error],
    );
  }

  /**
   * A retry by hand: the delivery (of an enabled endpoint of the project) becomes pending and due
   * now, finished or not. The delivery as it now is, or null when there is no such delivery.
   */
  async makeDueNow(projectId: string, endpointId: string, id: string, now: Date): Promise<WebhookDelivery | null> {
    const result = await this.dataSource.query(
      `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $4
        WHERE d.project_id = $1 AND d.endpoint_id = $2 AND d.id = $3
       RETURNING d.*`,
      [projectId, endpointId, id, now],
    );
    const rows = returnedRows<DeliveryDbRow>(result);
    return rows.length ? toDelivery(rows[0]) : null;
  }

  /** The sweep across projects: pending deliveries of enabled endpoints due before `before`, oldest first. */
  overdueAcrossProjects(before: Date, limit: number): Promise<Array<{ id: string; attempts: number; kind: DeliveryKind }>> {
    return this.dataSource.query(
      `SELECT d.id, d.attempts, d.kind FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
        WHERE d.status = 'pending' AND d.next_attempt_at < $1 ORDER BY d.next_attempt_at LIMIT $2`,
      [before, limit],
    );
  }

  /** The retention purge across projects: up to `limit` deliveries (their attempts with them) created before `before`; how many went. */
  async purgeExpiredAcrossProjects(before: Date, limit: number): Promise<number> {
    const result = await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1 LIMIT $2) RETURNING id`,
      [before, limit],
    );
    return returnedRows(result).length;
  }

  /** One keyset page of an endpoint's deliveries, newest first (`limit + 1` rows), and the filter's total when asked. */
  async page(
    projectId: string,
    endpointId: string,
    status: DeliveryStatus | undefined,
    after: { v: string; id: string } | null,
    limit: number,
    withTotal: boolean,
  ): Promise<{ rows: Array<WebhookDelivery & { createdKey: string }>; total: number }> {
    const filter = sql`project_id = ${projectId}::uuid AND endpoint_id = ${endpointId}::uuid${status ? sql` AND status = ${status}` : raw('')}`;
    const keyset = after ? sql` AND (created_at, id) < (${after.v}::timestamptz, ${after.id}::uuid)` : raw('');
    const page = sql`SELECT ${raw(LIST_COLUMNS)} FROM webhook_deliveries WHERE ${filter}${keyset} ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
    const rows: DeliveryDbRow[] = await this.dataSource.query(page.text, page.values);
    let total = 0;
    if (withTotal) {
      const count = sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${filter}`;
      total = ((await this.dataSource.query(count.text, count.values)) as Array<{ n: number }>)[0].n;
    }
    return { rows: rows.map((r) => ({ ...toDelivery(r), createdKey: r.created_key! })), total };
  }

  async findOne(projectId: string, endpointId: string, id: string): Promise<WebhookDelivery | null> {
    const rows: DeliveryDbRow[] = await this.dataSource.query(`SELECT * FROM webhook_deliveries WHERE project_id = $1 AND endpoint_id = $2 AND id = $3`, [projectId, endpointId, id]);
    return rows.length ? toDelivery(rows[0]) : null;
  }

  async attemptsOf(deliveryId: string): Promise<WebhookAttempt[]> {
    const rows: Array<{
      id: string;
      delivery_id: string;
      attempt: number;
      attempted_at: Date;
      response_status: number | null;
      response_headers: Record<string, string> | null;
      response_body: string | null;
      duration_ms: number;
      error: string | null;
    }> = await this.dataSource.query(`SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt, attempted_at`, [deliveryId]);
    return rows.map((r) => ({
      id: r.id,
      deliveryId: r.delivery_id,
      attempt: r.attempt,
      attemptedAt: r.attempted_at,
      responseStatus: r.response_status,
      responseHeaders: r.response_headers,
      responseBody: r.response_body,
      durationMs: r.duration_ms,
      error: r.error,
    }));
  }
}

/** The body of a delivery built in SQL from an events row `e` and its contact's address `ce.email`: the object `deliveryBody` (fan-out.ts) builds in TS. */
function replayBodySql(): string {
  // json (not jsonb) for the outer object: it keeps the keys in the contract's order.
  return `json_build_object(
    'id', e.id,
    'type', e.name,
    'timestamp', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', coalesce(e.data, '{}'::jsonb) || jsonb_build_object('contact', CASE WHEN ce.email IS NULL THEN NULL ELSE jsonb_build_object('id', e.contact_id, 'email', ce.email) END)
  )::text`;
}
