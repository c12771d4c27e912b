import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';
import type { FieldType } from '../data/field-types';

@Entity('contact_fields')
export class ContactField {
  @ForeignKey(() => Project, { name: 'contact_fields_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  /** Dotted path inside `data` (`plan`, `profile.tier`). */
  @PrimaryColumn('text') key: string;
  @Column('text') type: FieldType;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
