import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';

/** Persisted values: renaming one strands the templates (and emails) that carry it. */
export const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

@Entity('templates')
/** `(project_id, created_at DESC, id)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('templates_project_created_idx', { synchronize: false })
export class Template {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'templates_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('text') fromAddress: string;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  @Column('text', { default: 'MARKETING' }) type: TemplateType;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
