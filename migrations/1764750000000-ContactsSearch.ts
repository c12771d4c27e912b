import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactsSearch1764750000000 implements MigrationInterface {
  name = 'ContactsSearch1764750000000';

  async up(q: QueryRunner): Promise<void> {
    // `GET /contacts?search=` matches the email (its trigram index) or a word of a string field's
    // value by prefix (docs/api.md). The words of every string value of `data` (nested objects and
    // arrays included, `simple` config: lowercased, no stemming) are one GIN entry each: a superset
    // the query narrows to string-typed fields (`sql/list-contacts.sql.ts`). Words, not trigrams:
    // a trigram index over the data cost imports five times their time (bench import, embedded).
    await q.query(`CREATE INDEX contacts_search_words_idx ON contacts USING gin (jsonb_to_tsvector('simple'::regconfig, data, '["string"]'::jsonb))`);
    // A contact's timeline lists its workflow executions (`GET /activity/executions?contactId=`).
    await q.query(`CREATE INDEX workflow_executions_contact_idx ON workflow_executions (project_id, contact_id, started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS workflow_executions_contact_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_search_words_idx`);
  }
}
