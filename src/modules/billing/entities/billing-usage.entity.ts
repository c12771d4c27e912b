import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BillingCategory } from '../billing.types';

@Entity('billing_usage')
export class BillingUsage {
  @PrimaryColumn('uuid') projectId: string;
  /** First day of the UTC calendar month. */
  @PrimaryColumn('date') period: string;
  @PrimaryColumn('text') category: BillingCategory;
  @Column('integer', { default: 0 }) used: number;
}
