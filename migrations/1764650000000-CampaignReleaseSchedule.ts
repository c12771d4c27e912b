import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recipient time zones, gradual sending and sending windows (docs/delivery-control.md): the
 * campaign's delivery settings and its release schedule, persisted on the row so a worker killed
 * at any moment resumes where the schedule stood (`src/modules/campaigns/engine/release-schedule.ts`).
 */
export class CampaignReleaseSchedule1764650000000 implements MigrationInterface {
  name = 'CampaignReleaseSchedule1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaigns
        ADD COLUMN delivery jsonb,
        ADD COLUMN local_scheduled_for text,
        ADD COLUMN fallback_timezone text,
        ADD COLUMN release_moment timestamptz,
        ADD COLUMN wave_count int NOT NULL DEFAULT 0,
        ADD COLUMN wave_started_at timestamptz,
        ADD COLUMN wave_written int NOT NULL DEFAULT 0,
        ADD COLUMN next_batch_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaigns
        DROP COLUMN delivery, DROP COLUMN local_scheduled_for, DROP COLUMN fallback_timezone, DROP COLUMN release_moment,
        DROP COLUMN wave_count, DROP COLUMN wave_started_at, DROP COLUMN wave_written, DROP COLUMN next_batch_at`);
  }
}
