import { Injectable } from '@nestjs/common';

/** One upcoming item: a scheduled campaign or a waiting workflow execution, with when it is due. */
export interface UpcomingItem {
  id: string;
  name?: string;
  dueAt: string | null;
  [key: string]: unknown;
}

export type UpcomingKind = 'campaigns' | 'executions';
export type UpcomingProvider = (projectId: string) => Promise<UpcomingItem[]>;
export type CampaignNamesProvider = (projectId: string, ids: string[]) => Promise<Map<string, string>>;

/**
 * Where the modules that own campaigns and workflows plug their data into activity and
 * analytics, so this module never reads their tables:
 * - `registerUpcoming('campaigns', p => scheduled campaigns of p)`,
 * - `registerUpcoming('executions', p => waiting executions of p)`,
 * - `registerCampaignNames((p, ids) => Map id → name)`, for top campaigns and campaign stats.
 * Each provider must filter by the project id it is given.
 */
@Injectable()
export class ActivityRegistry {
  private readonly upcoming = new Map<UpcomingKind, UpcomingProvider>();
  private campaignNames: CampaignNamesProvider | null = null;

  registerUpcoming(kind: UpcomingKind, provider: UpcomingProvider): void {
    this.upcoming.set(kind, provider);
  }

  registerCampaignNames(provider: CampaignNamesProvider): void {
    this.campaignNames = provider;
  }

  async upcomingOf(kind: UpcomingKind, projectId: string): Promise<UpcomingItem[]> {
    const provider = this.upcoming.get(kind);
    return provider ? provider(projectId) : [];
  }

  async namesOf(projectId: string, ids: string[]): Promise<Map<string, string>> {
    if (!this.campaignNames || ids.length === 0) return new Map();
    return this.campaignNames(projectId, ids);
  }
}
