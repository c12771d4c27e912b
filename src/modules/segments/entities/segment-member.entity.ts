import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A STATIC segment's member, or a contact in a tracked DYNAMIC segment's last computed membership. */
@Entity('segment_members')
export class SegmentMember {
  @PrimaryColumn('uuid') segmentId: string;
  @PrimaryColumn('text') contactId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
