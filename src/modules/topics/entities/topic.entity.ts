import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';

/** Persisted values (`topics.subscription_default`): renaming one strands the topics that carry it. */
export const TOPIC_DEFAULTS = ['opt_out', 'opt_in'] as const;
export type TopicDefault = (typeof TOPIC_DEFAULTS)[number];

@Entity('topics')
@Unique('topics_project_slug_key', ['projectId', 'slug'])
@Check('topics_subscription_default_check', `subscription_default IN ('opt_out', 'opt_in')`)
export class Topic {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'topics_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') name: string;
  /** What contacts' `topics` keys, segment filters (`topics.<slug>`) and the API name the topic by. */
  @Column('text') slug: string;
  @Column('text', { nullable: true }) description: string | null;
  /** `opt_out`: every contact is a member unless it chose false; `opt_in`: only those that chose true. */
  @Column('text') subscriptionDefault: TopicDefault;
  /** Shown on the preference centre. */
  @Column('boolean', { default: true }) public: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
