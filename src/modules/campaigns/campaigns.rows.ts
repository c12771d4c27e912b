/** What the campaign list sorts by (`CampaignsRepository`'s keyset and offset pages). */
export const CAMPAIGN_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];
