import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';
import { Template } from '../../templates';
import { Topic } from '../../topics';

/** An attachment as stored until the message is built; `content` is base64 as received. */
export interface StoredAttachment {
  filename: string;
  content: string;
  contentType?: string;
  contentId?: string;
  disposition: 'attachment' | 'inline';
}

/**
 * Liquid sources and options shared by the emails of one send request (or campaign). Partitioned
 * by month of `created_at` like `emails` (docs/history-tables.md), hence the key `(id, created_at)`.
 */
@Entity('email_contents')
export class EmailContent {
  @PrimaryColumn('uuid', { default: () => 'uuidv7()' }) id: string;
  @ForeignKey(() => Project, { name: 'email_contents_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid', { nullable: true })
  projectId: string | null;
  @ForeignKey(() => Template, { name: 'email_contents_template_id_fkey', onDelete: 'SET NULL' })
  @Column('uuid', { nullable: true })
  templateId: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  /** False for account mail, whose subject and HTML arrive final (never read as Liquid). */
  @Column('boolean', { default: true }) liquid: boolean;
  /** The body is markdown (a `/v1/send` with `type: "markdown"`): converted to HTML after its Liquid is rendered. */
  @Column('boolean', { default: false }) markdown: boolean;
  /** A given plain-text part; null: generated from the rendered HTML. */
  @Column('text', { nullable: true }) text: string | null;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  /** Custom headers as sent; they override our defaults case-insensitively when the message is built. */
  @Column('jsonb', { default: {} }) headers: Record<string, string>;
  @Column('jsonb', { default: [] }) attachments: StoredAttachment[];
  /** A campaign's topic: its MARKETING mail's List-Unsubscribe leaves the topic. */
  @ForeignKey(() => Topic, { name: 'email_contents_topic_id_fkey', onDelete: 'SET NULL' })
  @Column('uuid', { nullable: true })
  topicId: string | null;
  /** Held by an audience (a campaign's, an A/B variant's): retention clears it from expired emails but never deletes the row (docs/retention.md). */
  @Column('boolean', { default: false }) audience: boolean;
  @PrimaryColumn('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
