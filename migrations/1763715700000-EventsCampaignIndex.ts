import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsCampaignIndex1763715700000 implements MigrationInterface {
  name = 'EventsCampaignIndex1763715700000';

  async up(q: QueryRunner): Promise<void> {
    // `GET /activity?campaignId=`: its pages (newest first) and its first page's `total` read one
    // campaign's events instead of filtering every event of the project. Partial: only the events
    // of campaign emails carry a campaignId, so other events write no entry.
    await q.query(`
      CREATE INDEX events_project_campaign_created_idx ON events (project_id, (data->>'campaignId'), created_at DESC, id DESC)
      WHERE data->>'campaignId' IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS events_project_campaign_created_idx`);
  }
}
