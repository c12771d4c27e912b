import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact erasure (docs/personal-data.md, "Erasure"): one `contact_erasures` row per request, with
 * the step it reached so a crashed job resumes after it; at most one unfinished row per contact.
 * The erased addresses are kept only as `sha256(salt ‖ address)` (`erased_addresses`), the salt
 * made per project at its first erasure (`erasure_salts`) and never shown by the API.
 *
 * The hourly event rollup's delete trigger learns to leave the counts alone for a transaction that
 * says so (`mailroom.keep_rollups`): an erasure deletes a contact's events, while the analytics of
 * the period must answer as before.
 */
export class ContactErasure1765200000000 implements MigrationInterface {
  name = 'ContactErasure1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // status values are persisted: queued | running | completed | failed; step: contacts/erasure/erasure-steps.ts;
    // requested_by_type: 'user' | 'key' (as the audit log's actors).
    await q.query(`
      CREATE TABLE contact_erasures (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        contact_id text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        step text,
        requested_by_type text NOT NULL,
        requested_by_id text NOT NULL,
        failure_reason text,
        requested_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT contact_erasures_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX contact_erasures_unfinished_key ON contact_erasures (project_id, contact_id) WHERE status IN ('queued', 'running')`);
    await q.query(`CREATE INDEX contact_erasures_project_requested_idx ON contact_erasures (project_id, requested_at DESC, id)`);
    await q.query(`
      CREATE TABLE erasure_salts (
        project_id uuid PRIMARY KEY,
        salt bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT erasure_salts_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE
      )`);
    await q.query(subtractFunction(true));
    await q.query(`
      CREATE TABLE erased_addresses (
        project_id uuid NOT NULL,
        address_hash bytea NOT NULL,
        erased_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, address_hash),
        CONSTRAINT erased_addresses_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(subtractFunction(false));
    await q.query(`DROP TABLE erased_addresses`);
    await q.query(`DROP TABLE erasure_salts`);
    await q.query(`DROP TABLE contact_erasures`);
  }
}

/** The rollup's delete trigger function; with `keep`, a transaction that set `mailroom.keep_rollups` to on subtracts nothing. */
function subtractFunction(keep: boolean): string {
  const guard = keep ? `IF current_setting('mailroom.keep_rollups', true) = 'on' THEN RETURN NULL; END IF;` : '';
  return `
      CREATE OR REPLACE FUNCTION event_counts_hourly_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${guard}
        UPDATE event_counts_hourly h SET count = h.count - d.n
        FROM (SELECT project_id, date_trunc('hour', created_at, 'UTC') AS hour, name, count(*) AS n FROM removed_events GROUP BY 1, 2, 3) d
        WHERE h.project_id = d.project_id AND h.hour = d.hour AND h.name = d.name;
        RETURN NULL;
      END $$`;
}
