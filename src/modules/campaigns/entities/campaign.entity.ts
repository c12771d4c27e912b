import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';
import { Template, type TemplateType } from '../../templates';
import { Topic } from '../../topics';
import type { AbCut } from '../sql/ab-test.sql';

/** Persisted values: renaming one strands the campaigns that carry it. */
export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** Persisted values. */
export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];
/** Persisted values of `ab_phase`: the test share is written, then the wait, then the rest gets the winner. */
export const AB_PHASES = ['testing', 'waiting', 'winner'] as const;
export type AbPhase = (typeof AB_PHASES)[number];
export const AB_METRICS = ['opens', 'clicks'] as const;
export type AbMetric = (typeof AB_METRICS)[number];

/** A campaign's A/B test as saved (docs/delivery-control.md#ab-tests): the campaign's own content is variant "A". */
export interface AbTestSettings {
  variants: Array<{ subject: string; body?: string | null; fromName?: string | null }>;
  testPercent: number;
  metric: AbMetric;
  waitMinutes: number;
}

/** Persisted weekday names of a sending window. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** A campaign's gradual sending and window, as persisted (validated by `delivery-settings.ts`). */
export interface CampaignDelivery {
  batchSize?: number;
  intervalMinutes?: number;
  window?: { days: Weekday[]; from: string; to: string; timezone: string };
}

@Entity('campaigns')
/** The engine's tick looks only at campaigns with work to do. */
@Index('campaigns_active_idx', ['scheduledFor'], { where: "status IN ('SCHEDULED', 'SENDING')" })
/** `(project_id, created_at DESC, id)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('campaigns_project_created_idx', { synchronize: false })
export class Campaign {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'campaigns_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('text') fromAddress: string;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  @Column('text', { default: 'MARKETING' }) type: TemplateType;
  @Column('text', { default: 'DRAFT' }) status: CampaignStatus;
  @Column('text') audienceType: AudienceType;
  @Column('uuid', { nullable: true }) segmentId: string | null;
  @Column('jsonb', { nullable: true }) audienceCondition: Record<string, unknown> | null;
  /** The audience is narrowed to this topic's members (the others are skipped `topic`); its MARKETING mail unsubscribes from the topic. */
  @ForeignKey(() => Topic, { name: 'campaigns_topic_id_fkey', onDelete: 'SET NULL' })
  @Column('uuid', { nullable: true })
  topicId: string | null;
  @ForeignKey(() => Template, { name: 'campaigns_template_id_fkey', onDelete: 'SET NULL' })
  @Column('uuid', { nullable: true })
  templateId: string | null;
  @Column('timestamptz', { nullable: true }) scheduledFor: Date | null;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  /** The fixed audience: contacts created up to this instant, walked in (created_at, id) order. */
  @Column('timestamptz', { nullable: true }) audienceFixedAt: Date | null;
  /** The engine's checkpoint: the last contact whose email row exists (advanced with the rows). */
  @Column('timestamptz', { nullable: true }) cursorCreatedAt: Date | null;
  @Column('text', { nullable: true }) cursorId: string | null;
  @Column('boolean', { default: false }) audienceDone: boolean;
  /** The campaign's one email_contents row (its sources, compiled once), made when sending starts. */
  @Column('uuid', { nullable: true }) contentId: string | null;
  /** The engine's lease of earlier versions, no longer read or written (the engine holds a campaign by its advisory lock). */
  @Column('timestamptz', { nullable: true }) engineLeaseUntil: Date | null;
  /** The fixed audience written so far, skipped contacts included: added by the engine with each batch (and by a cancel for the unwritten rest). */
  @Column('int', { default: 0 }) totalRecipients: number;
  /** Gradual sending and windows (docs/delivery-control.md): `{batchSize?, intervalMinutes?, window?}`, null for all at once. */
  @Column('jsonb', { nullable: true }) delivery: CampaignDelivery | null;
  /** `timezone: "recipient"`: the wall-clock time (`2026-12-01T09:00:00`) each contact gets it at in its own zone; null otherwise. */
  @Column('text', { nullable: true }) localScheduledFor: string | null;
  /** The zone of contacts without a valid `data.timezone` (recipient time zones only). */
  @Column('text', { nullable: true }) fallbackTimezone: string | null;
  /** Recipient time zones: the zone moment being released (contacts whose local time falls at or before it are written). */
  @Column('timestamptz', { nullable: true }) releaseMoment: Date | null;
  /** Waves started so far, the current one's start and how many of the audience it has written. */
  @Column('int', { default: 0 }) waveCount: number;
  @Column('timestamptz', { nullable: true }) waveStartedAt: Date | null;
  @Column('int', { default: 0 }) waveWritten: number;
  /** When the release schedule lets the next batch be written, while it waits (stats `nextBatchAt`). */
  @Column('timestamptz', { nullable: true }) nextBatchAt: Date | null;
  /**
   * sentCount … uncertainCount, and skippedCount/skipped beyond what a batch wrote skipped: kept by the
   * database, not by src/. The trigger `emails_campaign_counters` (AFTER UPDATE ON emails, per
   * statement; function `campaign_counters_on_email_update`, migrations/1763707000000-Campaigns.ts,
   * uncertain added in 1763717000000-UncertainEmails.ts) adds, per campaign, the emails whose
   * sent_at/delivered_at/opened_at/clicked_at/bounced_at/complained_at became set, and those that
   * became failed, skipped (by `error` as the reason in `skipped`) or uncertain (minus those that
   * left uncertain). Rows inserted already skipped (the engine's batches) are counted by the engine.
   */
  @Column('int', { default: 0 }) sentCount: number;
  @Column('int', { default: 0 }) deliveredCount: number;
  @Column('int', { default: 0 }) openedCount: number;
  @Column('int', { default: 0 }) clickedCount: number;
  @Column('int', { default: 0 }) bouncedCount: number;
  @Column('int', { default: 0 }) complainedCount: number;
  @Column('int', { default: 0 }) failedCount: number;
  /** Emails interrupted during their hand-over (may or may not have arrived); `resend-uncertain` sends them again. */
  @Column('int', { default: 0 }) uncertainCount: number;
  @Column('int', { default: 0 }) skippedCount: number;
  /** The A/B test's settings; null for a plain campaign. The columns below are its state, written by the engine (`engine/ab-test.ts`). */
  @Column('jsonb', { nullable: true }) abTest: AbTestSettings | null;
  /** Null until sending starts; then testing → waiting → winner. */
  @Column('text', { nullable: true }) abPhase: AbPhase | null;
  /** Per variant letter, its email_contents row (made once, when sending starts). */
  @Column('jsonb', { nullable: true }) abContents: Record<string, string> | null;
  /** Campaigns started before `abCuts`: the first eligible contact ids, one per variant, always in the test share. */
  @Column('jsonb', { nullable: true }) abSeed: string[] | null;
  /** Per variant, the last (hash, contact id) of its part of the test share (`sql/ab-test.sql.ts`), computed when sending starts. */
  @Column('jsonb', { nullable: true }) abCuts: AbCut[] | null;
  /** When the wait ends (set once the test share is written); a test moves it by SQL. */
  @Column('timestamptz', { nullable: true }) abWaitUntil: Date | null;
  @Column('text', { nullable: true }) abWinner: string | null;
  @Column('timestamptz', { nullable: true }) abDecidedAt: Date | null;
  @Column('jsonb', { default: {} }) skipped: Record<string, number>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
