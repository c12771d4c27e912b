import { Column, Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';

@Entity('billing_accounts')
@Index('billing_accounts_stripe_customer_key', ['stripeCustomerId'], { unique: true })
export class BillingAccount {
  @ForeignKey(() => Project, { name: 'billing_accounts_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  @Column('integer', { nullable: true }) workflowsLimit: number | null;
  @Column('integer', { nullable: true }) campaignsLimit: number | null;
  @Column('integer', { nullable: true }) transactionalLimit: number | null;
  @Column('integer', { nullable: true }) inboundLimit: number | null;
  @Column('text', { nullable: true }) stripeCustomerId: string | null;
  /** Stripe's subscription status as last reported by its webhook (`active`, `canceled`, …). */
  @Column('text', { nullable: true }) subscriptionStatus: string | null;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
