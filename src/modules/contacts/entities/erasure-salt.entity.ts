import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';

/** A project's random salt for `erased_addresses`, made at its first erasure; no API returns it. */
@Entity('erasure_salts')
export class ErasureSalt {
  @ForeignKey(() => Project, { name: 'erasure_salts_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  @Column('bytea') salt: Buffer;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
