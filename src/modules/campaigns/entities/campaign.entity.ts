import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { TemplateType } from '../../templates/entities/template.entity';

/** Persisted values: renaming one strands the campaigns that carry it. */
export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** Persisted values. */
export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

@Entity('campaigns')
export class Campaign {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('text') fromAddress: string;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  @Column('text') type: TemplateType;
  @Column('text') status: CampaignStatus;
  @Column('text') audienceType: AudienceType;
  @Column('uuid', { nullable: true }) segmentId: string | null;
  @Column('jsonb', { nullable: true }) audienceCondition: Record<string, unknown> | null;
  @Column('uuid', { nullable: true }) templateId: string | null;
  @Column('timestamptz', { nullable: true }) scheduledFor: Date | null;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  /** The fixed audience: contacts created up to this instant, walked in (created_at, id) order. */
  @Column('timestamptz', { nullable: true }) audienceFixedAt: Date | null;
  /** The engine's checkpoint: the last contact whose email row exists (advanced with the rows). */
  @Column('timestamptz', { nullable: true }) cursorCreatedAt: Date | null;
  @Column('text', { nullable: true }) cursorId: string | null;
  @Column('boolean') audienceDone: boolean;
  /** The campaign's one email_contents row (its sources, compiled once), made when sending starts. */
  @Column('uuid', { nullable: true }) contentId: string | null;
  @Column('timestamptz', { nullable: true }) engineLeaseUntil: Date | null;
  @Column('int') totalRecipients: number;
  @Column('int') sentCount: number;
  @Column('int') deliveredCount: number;
  @Column('int') openedCount: number;
  @Column('int') clickedCount: number;
  @Column('int') bouncedCount: number;
  @Column('int') complainedCount: number;
  @Column('int') failedCount: number;
  @Column('int') skippedCount: number;
  @Column('jsonb') skipped: Record<string, number>;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
