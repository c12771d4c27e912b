import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Persisted values: renaming one strands the templates (and emails) that carry it. */
export const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

@Entity('templates')
export class Template {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('text') fromAddress: string;
  @Column('text', { nullable: true }) fromName: string | null;
  @Column('text', { nullable: true }) replyTo: string | null;
  @Column('text') type: TemplateType;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
