import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';
import type { BillingCategory } from '../billing.types';

@Entity('billing_usage')
export class BillingUsage {
  @ForeignKey(() => Project, { name: 'billing_usage_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  /** First day of the UTC calendar month. */
  @PrimaryColumn('date') period: string;
  @PrimaryColumn('text') category: BillingCategory;
  @Column('integer', { default: 0 }) used: number;
}
