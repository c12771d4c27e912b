import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A contact holds at most 1,000 custom-data keys, nested keys counted by path
 * (DATA_LIMITS.keysPerContact in src/modules/contacts/data/data-patch.ts). Writers merge patches in
 * SQL (set-based upserts, imports), so the stored document is checked where it is written: a
 * statement that would pass the limit fails with SQLSTATE MR002 (a 422 naming the limit).
 * The walk runs only for documents over 8,000 bytes: each key costs at least 8 bytes of jsonb
 * (two 4-byte entries), so a smaller document cannot hold 1,001 keys.
 */
export class ContactDataKeysLimit1763709150000 implements MigrationInterface {
  name = 'ContactDataKeysLimit1763709150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION contact_data_key_count(doc jsonb) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
        WITH RECURSIVE walk(value) AS (
          SELECT doc
          UNION ALL
          SELECT e.value FROM walk, jsonb_each(CASE WHEN jsonb_typeof(walk.value) = 'object' THEN walk.value ELSE '{}'::jsonb END) e
        )
        SELECT count(*)::integer FROM walk WHERE jsonb_typeof(value) <> 'object'
      $$`);
    await q.query(`
      CREATE FUNCTION contact_data_keys_limit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF contact_data_key_count(NEW.data) > 1000 THEN
          RAISE EXCEPTION 'a contact may hold at most 1000 custom-data keys, nested keys counted (keysPerContact limit)' USING ERRCODE = 'MR002';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER contact_data_keys_limit BEFORE INSERT OR UPDATE OF data ON contacts
      FOR EACH ROW WHEN (pg_column_size(NEW.data) > 8000) EXECUTE FUNCTION contact_data_keys_limit()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS contact_data_keys_limit ON contacts`);
    await q.query(`DROP FUNCTION IF EXISTS contact_data_keys_limit()`);
    await q.query(`DROP FUNCTION IF EXISTS contact_data_key_count(jsonb)`);
  }
}
