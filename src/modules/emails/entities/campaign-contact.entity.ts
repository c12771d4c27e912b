import { Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * "Exactly one email per (campaign, contact), whatever crashes or retries happen": the audience
 * insert writes a contact's pair here first, in the same statement as its email, and writes the
 * email only for a pair that was new. A unique index on `emails` would have to include the
 * month it is partitioned by, and so could not hold this. The campaigns table is named, not its
 * entity: campaigns stand above emails.
 */
@Entity('campaign_contacts')
export class CampaignContact {
  @ForeignKey('campaigns', { name: 'campaign_contacts_campaign_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  campaignId: string;
  @PrimaryColumn('text') contactId: string;
}
