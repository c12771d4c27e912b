import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Contact } from '../../contacts';
import { Project } from '../../projects';

/** One received message for one project (a message for several projects' domains has a row each). */
@Entity('inbound_messages')
@Index('inbound_messages_project_received_idx', ['projectId', 'receivedAt'])
@Index('inbound_messages_contact_idx', ['contactId'], { where: 'contact_id IS NOT NULL' })
/** The retention purge's range. */
@Index('inbound_messages_received_idx', ['receivedAt'])
export class InboundMessage {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'inbound_messages_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  /** The sender's contact (contact ids are text). */
  @ForeignKey(() => Contact, { name: 'inbound_messages_contact_id_fkey', onDelete: 'SET NULL' })
  @Column('text', { nullable: true })
  contactId: string | null;
  /** Key of the raw bytes in the `inbound` storage area. */
  @Column('text') storageKey: string;
  @Column('integer') size: number;
  /** Envelope sender (MAIL FROM); null for the null sender `<>`. */
  @Column('text', { nullable: true }) mailFrom: string | null;
  /** The envelope recipients on this project's domains. */
  @Column('text', { array: true }) recipients: string[];
  @Column('text', { nullable: true }) fromAddress: string | null;
  @Column('text', { nullable: true }) subject: string | null;
  @Column('text', { nullable: true }) messageId: string | null;
  /** mailauth verdicts (`pass`, `fail`, `softfail`, `neutral`, `none`, `temperror`, `permerror`, `policy`). */
  @Column('text') spf: string;
  @Column('text') dkim: string;
  @Column('text') dmarc: string;
  @Column('timestamptz', { default: () => 'now()' }) receivedAt: Date;
}
