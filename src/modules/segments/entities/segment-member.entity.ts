import { CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Contact } from '../../contacts';
import { Segment } from './segment.entity';

/** A STATIC segment's member, or a contact in a tracked DYNAMIC segment's last computed membership. */
@Entity('segment_members')
@Index('segment_members_contact_idx', ['contactId'])
export class SegmentMember {
  @ForeignKey(() => Segment, { name: 'segment_members_segment_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  segmentId: string;
  @ForeignKey(() => Contact, { name: 'segment_members_contact_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('text')
  contactId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
