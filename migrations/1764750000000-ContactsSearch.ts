import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactsSearch1764750000000 implements MigrationInterface {
  name = 'ContactsSearch1764750000000';

  async up(q: QueryRunner): Promise<void> {
    // `GET /contacts?search=` matches the email or a string field's value (docs/api.md). The
    // trigram index covers the email and the data's JSON text (lowercased): a superset the query
    // narrows to string-typed fields (`sql/list-contacts.sql.ts`). JSON text escapes `"` and `\`
    // the way JSON.stringify does, so the query escapes its term the same way for this test.
    await q.query(`CREATE FUNCTION contact_search_text(email text, data jsonb) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT email || E'\\n' || lower(data::text) $$`);
    await q.query(`CREATE INDEX contacts_search_trgm_idx ON contacts USING gin (contact_search_text(email, data) gin_trgm_ops)`);
    // A contact's timeline lists its workflow executions (`GET /activity/executions?contactId=`).
    await q.query(`CREATE INDEX workflow_executions_contact_idx ON workflow_executions (project_id, contact_id, started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS workflow_executions_contact_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_search_trgm_idx`);
    await q.query(`DROP FUNCTION IF EXISTS contact_search_text(text, jsonb)`);
  }
}
