import { ApiProperty, OmitType } from '@nestjs/swagger';
import type { CampaignStatsRow as CampaignRow } from '../../activity';
import { CampaignStats } from './campaign.response';

/** GET /campaigns/:id/stats counted over the emails created in the range, with the campaign's id and name. */
export class CampaignStatsRowSchema extends OmitType(CampaignStats, ['unsubscribedCount', 'skipped', 'abTest', 'waiting', 'nextBatchAt', 'uncertainArrivedShare'] as const) implements CampaignRow {
  @ApiProperty({ description: 'Campaign (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Campaign name; null once the campaign is deleted', type: String, nullable: true })
  name!: string | null;
}

export class CampaignStatsListSchema {
  @ApiProperty({ description: 'Campaigns with emails in the range, latest first (at most `limit`, default 100)', type: () => [CampaignStatsRowSchema] })
  data!: CampaignStatsRowSchema[];
}
