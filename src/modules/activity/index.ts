// What other modules may import from activity (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './activity.module';
export * from './activity.registry';
export { AnalyticsService } from './analytics.service';
export type { CampaignStats as CampaignStatsRow } from './analytics.service';
export { TopEventsQuery } from './dto/activity.query';
