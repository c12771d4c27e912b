import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** Persisted values. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Persisted values: what made the delivery (an event through the outbox, a replay, a test). */
export type DeliveryKind = 'event' | 'replay' | 'test';

@Entity('webhook_deliveries')
@Check('webhook_deliveries_status_check', `status IN ('pending', 'succeeded', 'failed')`)
@Check('webhook_deliveries_kind_check', `kind IN ('event', 'replay', 'test')`)
/** The outbox hands an event on at least once: its second hand-over makes no second delivery (replays and tests make new ones). */
@Index('webhook_deliveries_event_key', ['endpointId', 'eventId'], { unique: true, where: "kind = 'event'" })
/** The log: an endpoint's deliveries newest first (scanned backwards), all or of one status. */
@Index('webhook_deliveries_endpoint_created_idx', ['endpointId', 'createdAt', 'id'])
@Index('webhook_deliveries_endpoint_status_created_idx', ['endpointId', 'status', 'createdAt', 'id'])
/** The sweep: pending deliveries by due time. */
@Index('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
/** The retention purge. */
@Index('webhook_deliveries_created_idx', ['createdAt'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Tenancy of every read; the rows go with their endpoint (which goes with its project). */
  @Column('uuid') projectId: string;
  @ForeignKey(() => WebhookEndpoint, { name: 'webhook_deliveries_endpoint_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  endpointId: string;
  /** The event's id (the body's `id` and the `webhook-id` header); a test's own id. No foreign key: the log outlives a deleted event. */
  @Column('uuid') eventId: string;
  @Column('text', { default: 'event' }) kind: DeliveryKind;
  /** The event's name (`type` of the body). */
  @Column('text') type: string;
  /** The request body, frozen at fan-out: every attempt sends (and signs) exactly this. */
  @Column('text') body: string;
  @Column('text', { default: 'pending' }) status: DeliveryStatus;
  @Column('integer', { default: 0 }) attempts: number;
  /** Pending: when the next attempt is due, or, while one runs, when its lease ends. Null once finished. */
  @Column('timestamptz', { nullable: true }) nextAttemptAt: Date | null;
  @Column('timestamptz', { nullable: true }) lastAttemptAt: Date | null;
  @Column('integer', { nullable: true }) responseStatus: number | null;
  @Column('integer', { nullable: true }) durationMs: number | null;
  @Column('text', { nullable: true }) error: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
