import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Persisted values. */
export type TrackingMode = 'ENABLED' | 'DISABLED' | 'MARKETING_ONLY';

@Entity('projects')
export class Project {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') secretKeyHash: string;
  @Column('text') publicKeyHash: string;
  @Column('text') secretPrefix: string;
  @Column('text') publicPrefix: string;
  @Column('boolean') disabled: boolean;
  @Column('text', { nullable: true }) disabledReason: string | null;
  @Column('timestamptz', { nullable: true }) disabledAt: Date | null;
  @Column('text') tracking: TrackingMode;
  @Column('text') language: string;
  @Column('text') webhookSecret: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
