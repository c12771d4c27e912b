import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';

/**
 * The hashed suppression of erased contacts: `sha256(salt ‖ lower-cased address)` with the
 * project's `ErasureSalt`. A contact created again with such an address starts unsubscribed and
 * MARKETING mail skips it (`erased`) until it subscribes explicitly, which removes its row.
 */
@Entity('erased_addresses')
export class ErasedAddress {
  @ForeignKey(() => Project, { name: 'erased_addresses_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  @PrimaryColumn('bytea') addressHash: Buffer;
  @Column('timestamptz', { default: () => 'now()' }) erasedAt: Date;
}
