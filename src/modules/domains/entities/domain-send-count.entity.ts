import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Domain } from './domain.entity';

/** Emails sent from a warming domain per UTC day (docs/delivery-control.md, "Domain warm-up"): upserted set-based, one statement per batch. */
@Entity('domain_send_counts')
export class DomainSendCount {
  @ForeignKey(() => Domain, { name: 'domain_send_counts_domain_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  domainId: string;
  /** The UTC date. */
  @PrimaryColumn('date') day: string;
  @Column('int', { default: 0 }) sent: number;
}
