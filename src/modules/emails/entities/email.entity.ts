import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { TemplateType } from '../../templates/entities/template.entity';

/** Persisted values (renaming one strands the rows that carry it). */
export type EmailStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'failed' | 'skipped';
export type EmailType = TemplateType;

/** One recipient message. Written (status `queued`) before its job is enqueued. */
@Entity('emails')
export class Email {
  @PrimaryColumn('uuid') id: string;
  /** Null for account mail (verification, password reset), which belongs to no project. */
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('text', { nullable: true }) contactId: string | null;
  @Column('uuid', { nullable: true }) templateId: string | null;
  @Column('uuid', { nullable: true }) campaignId: string | null;
  @Column('uuid', { nullable: true }) contentId: string | null;
  @Column('text') type: EmailType;
  @Column('text') fromAddress: string;
  @Column('text') toAddress: string;
  @Column('text', { nullable: true }) toName: string | null;
  /** The rendered subject, filled in when the message is built. */
  @Column('text', { nullable: true }) subject: string | null;
  /** Render-time variables (contact data plus one-off values); null: read the contact's data when sending. */
  @Column('jsonb', { nullable: true }) variables: Record<string, unknown> | null;
  @Column('text') status: EmailStatus;
  @Column('text', { nullable: true }) messageId: string | null;
  @Column('text', { nullable: true }) providerMessageId: string | null;
  @Column('text', { nullable: true }) error: string | null;
  @Column('int') attempts: number;
  @Column('timestamptz', { nullable: true }) leaseUntil: Date | null;
  @Column('boolean') trackOpens: boolean;
  @Column('boolean') trackClicks: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) sentAt: Date | null;
  @Column('timestamptz', { nullable: true }) deliveredAt: Date | null;
  @Column('timestamptz', { nullable: true }) bouncedAt: Date | null;
  @Column('text', { nullable: true }) bounceType: string | null;
  @Column('timestamptz', { nullable: true }) complainedAt: Date | null;
  @Column('timestamptz', { nullable: true }) failedAt: Date | null;
  @Column('timestamptz', { nullable: true }) openedAt: Date | null;
  @Column('timestamptz', { nullable: true }) clickedAt: Date | null;
  @Column('int') openCount: number;
  @Column('int') clickCount: number;
}
