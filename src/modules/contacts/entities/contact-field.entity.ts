import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FieldType } from '../data/field-types';

@Entity('contact_fields')
export class ContactField {
  @PrimaryColumn('uuid') projectId: string;
  /** Dotted path inside `data` (`plan`, `profile.tier`). */
  @PrimaryColumn('text') key: string;
  @Column('text') type: FieldType;
  @Column('timestamptz') createdAt: Date;
}
