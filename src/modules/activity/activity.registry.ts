import { Injectable } from '@nestjs/common';

/** A SCHEDULED campaign (docs/decisions.md#activity-and-analytics, `/activity/upcoming`). */
export interface UpcomingCampaign {
  id: string;
  name: string;
  subject: string;
  /** ISO 8601. */
  scheduledFor: string;
}

/** A WAITING workflow execution; the activity module resolves `contactId` to `{id, email}`. */
export interface UpcomingExecution {
  id: string;
  workflowId: string;
  workflowName: string;
  contactId: string;
  /** ISO 8601: a DELAY's end or a WAIT_FOR_EVENT's timeout; null for a wait without timeout. */
  dueAt: string | null;
}

interface UpcomingKinds {
  campaigns: UpcomingCampaign;
  executions: UpcomingExecution;
}
export type UpcomingKind = keyof UpcomingKinds;
export type UpcomingProvider<K extends UpcomingKind> = (projectId: string) => Promise<Array<UpcomingKinds[K]>>;
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
  private readonly upcoming: { [K in UpcomingKind]?: UpcomingProvider<K> } = {};
  private campaignNames: CampaignNamesProvider | null = null;

  registerUpcoming<K extends UpcomingKind>(kind: K, provider: UpcomingProvider<K>): void {
    (this.upcoming as Record<K, UpcomingProvider<K>>)[kind] = provider;
  }

  registerCampaignNames(provider: CampaignNamesProvider): void {
    this.campaignNames = provider;
  }

  async upcomingOf<K extends UpcomingKind>(kind: K, projectId: string): Promise<Array<UpcomingKinds[K]>> {
    const provider = this.upcoming[kind] as UpcomingProvider<K> | undefined;
    return provider ? provider(projectId) : [];
  }

  async namesOf(projectId: string, ids: string[]): Promise<Map<string, string>> {
    if (!this.campaignNames || ids.length === 0) return new Map();
    return this.campaignNames(projectId, ids);
  }
}
