import { MigrationInterface, QueryRunner } from 'typeorm';

export class CampaignRecipientsIndex1764500000000 implements MigrationInterface {
  name = 'CampaignRecipientsIndex1764500000000';

  async up(q: QueryRunner): Promise<void> {
    // `GET /campaigns/:id/recipients`: keyset pages by (to_address, id) of one campaign read only
    // the page's index entries, whatever the campaign's size (docs/campaign-results.md).
    await q.query(`CREATE INDEX emails_campaign_recipients_idx ON emails (campaign_id, to_address, id) WHERE campaign_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS emails_campaign_recipients_idx`);
  }
}
