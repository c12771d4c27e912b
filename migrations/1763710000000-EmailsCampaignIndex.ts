import { MigrationInterface, QueryRunner } from 'typeorm';

export class EmailsCampaignIndex1763710000000 implements MigrationInterface {
  name = 'EmailsCampaignIndex1763710000000';

  async up(q: QueryRunner): Promise<void> {
    // `emails_campaign_contact_key (campaign_id, contact_id)` serves every lookup by campaign_id;
    // the single-column index only cost each campaign email one more index entry.
    await q.query(`DROP INDEX IF EXISTS emails_campaign_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX emails_campaign_idx ON emails (campaign_id) WHERE campaign_id IS NOT NULL`);
  }
}
