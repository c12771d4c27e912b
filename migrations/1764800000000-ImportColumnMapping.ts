import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImportColumnMapping1764800000000 implements MigrationInterface {
  name = 'ImportColumnMapping1764800000000';

  async up(q: QueryRunner): Promise<void> {
    // An import's column mapping (header → key or null to skip), kept with its file so a resumed job applies it too.
    await q.query(`ALTER TABLE import_jobs ADD COLUMN column_mapping jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE import_jobs DROP COLUMN IF EXISTS column_mapping`);
  }
}
