import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity('billing_accounts')
export class BillingAccount {
  @PrimaryColumn('uuid') projectId: string;
  @Column('integer', { nullable: true }) workflowsLimit: number | null;
  @Column('integer', { nullable: true }) campaignsLimit: number | null;
  @Column('integer', { nullable: true }) transactionalLimit: number | null;
  @Column('integer', { nullable: true }) inboundLimit: number | null;
  @Column('text', { nullable: true }) stripeCustomerId: string | null;
  /** Stripe's subscription status as last reported by its webhook (`active`, `canceled`, …). */
  @Column('text', { nullable: true }) subscriptionStatus: string | null;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
