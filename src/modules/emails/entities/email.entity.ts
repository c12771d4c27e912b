import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Contact } from '../../contacts';
import { Project } from '../../projects';
import { Template, type TemplateType } from '../../templates';

/** Persisted values (renaming one strands the rows that carry it). */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'skipped', 'uncertain'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type EmailType = TemplateType;

/**
 * One recipient message. Written (status `queued`) before its job is enqueued. Partitioned by
 * month of `created_at` (docs/history-tables.md), hence the key `(id, created_at)`; new ids are
 * UUIDv7, whose first 48 bits are the creation millisecond.
 */
@Entity('emails')
@Index('emails_content_idx', ['contentId'])
@Index('emails_contact_status_idx', ['contactId', 'status'])
@Index('emails_provider_message_idx', ['providerMessageId'], { where: 'provider_message_id IS NOT NULL' })
/** The re-enqueue sweep looks only at unfinished rows. */
@Index('emails_unfinished_idx', ['createdAt'], { where: "status IN ('queued', 'sending')" })
/**
 * Every lookup by campaign. "Exactly one email per (campaign, contact)" cannot be a unique index of
 * a table partitioned by month: `campaign_contacts` holds it (`CampaignContact`).
 */
@Index('emails_campaign_contact_idx', ['campaignId', 'contactId'], { where: 'campaign_id IS NOT NULL' })
/** The recipients list of a sent campaign (`GET /campaigns/:id/recipients`), keyset by address. */
@Index('emails_campaign_recipients_idx', ['campaignId', 'toAddress', 'id'], { where: 'campaign_id IS NOT NULL' })
/** Backlog (backpressure) and completion checks read only a campaign's unfinished emails. */
@Index('emails_campaign_unfinished_idx', ['campaignId'], { where: "campaign_id IS NOT NULL AND status IN ('queued', 'sending')" })
/**
 * Descending keys, which TypeORM cannot declare, left to the migrations:
 * `emails_project_created_idx (project_id, created_at DESC, id)`, `emails_contact_created_idx (contact_id, created_at DESC)`,
 * `emails_project_status_created_idx (project_id, status, created_at DESC, id)` (`GET /v1/emails?status=`).
 */
@Index('emails_project_created_idx', { synchronize: false })
@Index('emails_contact_created_idx', { synchronize: false })
@Index('emails_project_status_created_idx', { synchronize: false })
export class Email {
  @PrimaryColumn('uuid', { default: () => 'uuidv7()' }) id: string;
  /** Null for account mail (verification, password reset), which belongs to no project. */
  @ForeignKey(() => Project, { name: 'emails_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid', { nullable: true })
  projectId: string | null;
  @ForeignKey(() => Contact, { name: 'emails_contact_id_fkey', onDelete: 'SET NULL' })
  @Column('text', { nullable: true })
  contactId: string | null;
  @ForeignKey(() => Template, { name: 'emails_template_id_fkey', onDelete: 'SET NULL' })
  @Column('uuid', { nullable: true })
  templateId: string | null;
  @Column('uuid', { nullable: true }) campaignId: string | null;
  /** The workflow execution whose SEND_EMAIL step queued the email. */
  @Column('uuid', { nullable: true }) workflowExecutionId: string | null;
  /**
   * The shared content row (`EmailContent`), made in the same statement, so of the same month. No
   * foreign key: a partitioned table is referenced by its whole key; a content row is deleted only
   * when no email references it, or with its month (docs/history-tables.md).
   */
  @Column('uuid', { nullable: true })
  contentId: string | null;
  @Column('text') type: EmailType;
  @Column('text') fromAddress: string;
  @Column('text') toAddress: string;
  @Column('text', { nullable: true }) toName: string | null;
  /** The rendered subject, filled in when the message is built. */
  @Column('text', { nullable: true }) subject: string | null;
  /** Render-time variables (contact data plus one-off values); null: read the contact's data when sending. */
  @Column('jsonb', { nullable: true }) variables: Record<string, unknown> | null;
  @Column('text', { default: 'queued' }) status: EmailStatus;
  @Column('text', { nullable: true }) messageId: string | null;
  @Column('text', { nullable: true }) providerMessageId: string | null;
  @Column('text', { nullable: true }) error: string | null;
  @Column('int', { default: 0 }) attempts: number;
  /** Held by a domain's warm-up cap: never claimed before this time (docs/delivery-control.md, "Domain warm-up"). */
  @Column('timestamptz', { nullable: true }) notBefore: Date | null;
  @Column('timestamptz', { nullable: true }) leaseUntil: Date | null;
  /** Written by each claim (queued → sending): lets the claiming worker take back its own claim when nothing was handed over. */
  @Column('uuid', { nullable: true }) claimToken: string | null;
  /** `smtp` for an email of the submission relay (its events carry `source`); null otherwise. Persisted value. */
  @Column('text', { nullable: true }) source: string | null;
  /** A campaign A/B test's variant letter ("A", "B", …) the email carries; null otherwise. */
  @Column('text', { nullable: true }) variant: string | null;
  @Column('boolean', { default: false }) trackOpens: boolean;
  @Column('boolean', { default: false }) trackClicks: boolean;
  @PrimaryColumn('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) deliveredAt: Date | null;
  @Column('timestamptz', { nullable: true }) bouncedAt: Date | null;
  @Column('text', { nullable: true }) bounceType: string | null;
  @Column('timestamptz', { nullable: true }) complainedAt: Date | null;
  @Column('timestamptz', { nullable: true }) failedAt: Date | null;
  @Column('timestamptz', { nullable: true }) openedAt: Date | null;
  @Column('timestamptz', { nullable: true }) clickedAt: Date | null;
  @Column('int', { default: 0 }) openCount: number;
  @Column('int', { default: 0 }) clickCount: number;
}
