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
/** Names by id of a module's records (ids come from event data: the provider ignores malformed ones). */
export type NamesProvider = (projectId: string, ids: string[]) => Promise<Map<string, string>>;

/** A contact's workflow execution, for its timeline (`GET /activity/executions?contactId=`). */
export interface ContactExecution {
  id: string;
  workflowId: string;
  workflowName: string;
  /** RUNNING, WAITING, COMPLETED, EXITED, FAILED or CANCELLED. */
  status: string;
  exitReason: string | null;
  /** ISO 8601. */
  startedAt: string;
  completedAt: string | null;
}
export type ContactExecutionsProvider = (projectId: string, contactId: string, limit: number) => Promise<ContactExecution[]>;

/** What `/analytics/top-campaigns` ranks by (wire values). */
export const CAMPAIGN_EMAIL_METRICS = ['sent', 'opens', 'clicks'] as const;
export type CampaignEmailMetric = (typeof CAMPAIGN_EMAIL_METRICS)[number];

/** Counters of one campaign's emails created in a range. */
export interface CampaignEmailTotals {
  id: string;
  total: number;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  skipped: number;
  failed: number;
  uncertain: number;
}

/** The campaigns module's numbers over its emails, for analytics. */
export interface CampaignEmailsProvider {
  top(projectId: string, metric: CampaignEmailMetric, range: { from: Date; to: Date }, limit: number): Promise<Array<{ id: string; value: number }>>;
  totals(projectId: string, range: { from: Date; to: Date }, limit: number): Promise<CampaignEmailTotals[]>;
}

/**
 * Where the modules that own campaigns and workflows plug their data into activity and
 * analytics, so this module never reads their tables:
 * - `registerUpcoming('campaigns', p => scheduled campaigns of p)`,
 * - `registerUpcoming('executions', p => waiting executions of p)`,
 * - `registerCampaignNames((p, ids) => Map id → name)`, for top campaigns and campaign stats,
 * - `registerCampaignEmails({top, totals})`, the numbers of campaigns' emails,
 * - `registerTemplateNames((p, ids) => Map id → name)`, for the names on email activity,
 * - `registerContactExecutions((p, contactId, limit) => executions)`, a contact's timeline.
 * Each provider must filter by the project id it is given.
 */
@Injectable()
export class ActivityRegistry {
  private readonly upcoming: { [K in UpcomingKind]?: UpcomingProvider<K> } = {};
  private campaignNames: CampaignNamesProvider | null = null;
  private campaignEmails: CampaignEmailsProvider | null = null;
  private templateNames: NamesProvider | null = null;
  private contactExecutions: ContactExecutionsProvider | null = null;

  registerTemplateNames(provider: NamesProvider): void {
    this.templateNames = provider;
  }

  registerContactExecutions(provider: ContactExecutionsProvider): void {
    this.contactExecutions = provider;
  }

  async templateNamesOf(projectId: string, ids: string[]): Promise<Map<string, string>> {
    if (!this.templateNames || ids.length === 0) return new Map();
    return this.templateNames(projectId, ids);
  }

  /** The contact's executions, newest first (none without a workflows module). */
  async executionsOf(projectId: string, contactId: string, limit: number): Promise<ContactExecution[]> {
    return this.contactExecutions ? this.contactExecutions(projectId, contactId, limit) : [];
  }

  registerUpcoming<K extends UpcomingKind>(kind: K, provider: UpcomingProvider<K>): void {
    (this.upcoming as Record<K, UpcomingProvider<K>>)[kind] = provider;
  }

  registerCampaignNames(provider: CampaignNamesProvider): void {
    this.campaignNames = provider;
  }

  registerCampaignEmails(provider: CampaignEmailsProvider): void {
    this.campaignEmails = provider;
  }

  /** Campaigns ranked by `metric` (none without a campaigns module). */
  async topCampaigns(projectId: string, metric: CampaignEmailMetric, range: { from: Date; to: Date }, limit: number): Promise<Array<{ id: string; value: number }>> {
    return this.campaignEmails ? this.campaignEmails.top(projectId, metric, range, limit) : [];
  }

  async campaignTotals(projectId: string, range: { from: Date; to: Date }, limit: number): Promise<CampaignEmailTotals[]> {
    return this.campaignEmails ? this.campaignEmails.totals(projectId, range, limit) : [];
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
