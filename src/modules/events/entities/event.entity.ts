import { Column, Entity, ForeignKey, Generated, Index, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';

/** Partitioned by month of `created_at` (docs/history-tables.md), hence the key `(id, created_at)`; new ids are UUIDv7. */
@Entity('events')
@Index('events_project_contact_name_created_idx', ['projectId', 'contactId', 'name', 'createdAt'])
/**
 * Index forms TypeORM cannot declare, left to the migrations: descending keys
 * (`events_project_created_idx (project_id, created_at DESC, id DESC)`,
 * `events_contact_created_idx (contact_id, created_at DESC)`) and an INCLUDE list
 * (`events_project_name_created_contact_idx (project_id, name, created_at) INCLUDE (contact_id)`,
 * which also serves the lists by name, newest first, scanned backwards), and an expression with a
 * predicate (`events_project_campaign_created_idx (project_id, (data->>'campaignId'), created_at
 * DESC, id DESC) WHERE data->>'campaignId' IS NOT NULL`: the activity feed of one campaign).
 */
@Index('events_project_created_idx', { synchronize: false })
@Index('events_contact_created_idx', { synchronize: false })
@Index('events_project_name_created_contact_idx', { synchronize: false })
@Index('events_project_campaign_created_idx', { synchronize: false })
export class EventRecord {
  @PrimaryColumn('uuid', { default: () => 'uuidv7()' }) id: string;
  @ForeignKey(() => Project, { name: 'events_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  /** A contact's events go with it (a contact delete is permanent). The contacts table is named, not its entity: contacts stand above events. */
  @ForeignKey('contacts', { name: 'events_contact_id_fkey', onDelete: 'CASCADE' })
  @Column('text', { nullable: true })
  contactId: string | null;
  @Column('text') name: string;
  @Column('jsonb', { default: {} }) data: Record<string, unknown>;
  @PrimaryColumn('timestamptz', { default: () => 'now()' }) createdAt: Date;
  /** Commit-independent order of every event: the event outbox's cursor column (unique by its sequence; a partitioned table's unique index would need `created_at`). */
  @Index('events_seq_idx')
  @Generated('increment')
  @Column({ type: 'bigint', insert: false, update: false })
  seq: string;
}
