import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

@Entity('webhook_attempts')
@Index('webhook_attempts_delivery_idx', ['deliveryId', 'attempt'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => WebhookDelivery, { name: 'webhook_attempts_delivery_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  deliveryId: string;
  /** 1 for the first attempt of the delivery. */
  @Column('integer') attempt: number;
  @Column('timestamptz') attemptedAt: Date;
  @Column('integer', { nullable: true }) responseStatus: number | null;
  @Column('jsonb', { nullable: true }) responseHeaders: Record<string, string> | null;
  /** The first 2 KB of the answer's body. */
  @Column('text', { nullable: true }) responseBody: string | null;
  @Column('integer') durationMs: number;
  @Column('text', { nullable: true }) error: string | null;
}
