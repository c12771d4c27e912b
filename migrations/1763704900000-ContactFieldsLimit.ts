import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project holds at most 10,000 distinct custom-field keys (DATA_LIMITS.keysPerProject in
 * src/modules/contacts/data/data-patch.ts). Every writer (contacts, /v1/track, /v1/send, CSV
 * import, workflows) inserts first-seen keys into contact_fields, so the database is the one
 * place that sees them all: a statement that would pass the limit fails with SQLSTATE MR001,
 * which the error filter answers with a 422 naming the limit (nothing of the statement is kept).
 */
export class ContactFieldsLimit1763704900000 implements MigrationInterface {
  name = 'ContactFieldsLimit1763704900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION contact_fields_limit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (
          SELECT 1 FROM contact_fields f
           WHERE f.project_id IN (SELECT DISTINCT project_id FROM inserted)
           GROUP BY f.project_id HAVING count(*) > 10000
        ) THEN
          RAISE EXCEPTION 'a project may hold at most 10000 distinct custom-field keys (keysPerProject limit)' USING ERRCODE = 'MR001';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER contact_fields_limit AFTER INSERT ON contact_fields
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION contact_fields_limit()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS contact_fields_limit ON contact_fields`);
    await q.query(`DROP FUNCTION IF EXISTS contact_fields_limit()`);
  }
}
