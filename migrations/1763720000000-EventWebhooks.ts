import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event webhooks (docs/extensions.md, section 1): a project's endpoints, one delivery per
 * (endpoint, event) with its frozen body and retry state, and every attempt of a delivery.
 * Deliveries go with their endpoint, attempts with their delivery (and so all with the project).
 */
export class EventWebhooks1763720000000 implements MigrationInterface {
  name = 'EventWebhooks1763720000000';

  async up(q: QueryRunner): Promise<void> {
    // disabled_reason values are persisted: 'GONE' | 'FAILING'.
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        url text NOT NULL,
        description text,
        events text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        last_success_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_endpoints_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE,
        CONSTRAINT webhook_endpoints_disabled_reason_check CHECK (disabled_reason IN ('GONE', 'FAILING'))
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_project_created_idx ON webhook_endpoints (project_id, created_at)`);
    await q.query(`CREATE INDEX webhook_endpoints_failing_idx ON webhook_endpoints (failing_since) WHERE failing_since IS NOT NULL AND enabled`);

    // status values are persisted: 'pending' | 'succeeded' | 'failed'; kind: 'event' | 'replay' | 'test'.
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        event_id uuid NOT NULL,
        kind text NOT NULL DEFAULT 'event',
        type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        response_status integer,
        duration_ms integer,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        CONSTRAINT webhook_deliveries_kind_check CHECK (kind IN ('event', 'replay', 'test'))
      )`);
    // The outbox hands an event on at least once: its second hand-over makes no second delivery.
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (endpoint_id, event_id) WHERE kind = 'event'`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_created_idx ON webhook_deliveries (endpoint_id, created_at, id)`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_status_created_idx ON webhook_deliveries (endpoint_id, status, created_at, id)`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)`);

    await q.query(`
      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        response_status integer,
        response_headers jsonb,
        response_body text,
        duration_ms integer NOT NULL,
        error text,
        CONSTRAINT webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_attempts`);
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
  }
}
