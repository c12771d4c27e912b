import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InboundMessage } from './entities/inbound-message.entity';

export type NewInboundMessage = Omit<InboundMessage, 'receivedAt'>;

/** `inbound_messages`: every read and write takes the project first. */
@Injectable()
export class InboundRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(row: NewInboundMessage, em: EntityManager): Promise<InboundMessage> {
    return em.getRepository(InboundMessage).save(em.getRepository(InboundMessage).create(row));
  }

  findOne(projectId: string, id: string): Promise<InboundMessage | null> {
    return this.dataSource.getRepository(InboundMessage).findOneBy({ projectId, id });
  }

  /**
   * One keyset batch of the mail received from a contact, newest first (`received_at`, `id`):
   * recorded with the contact, or without one from its address; and the cursor after it (null on
   * the last batch).
   */
  async fromContact(projectId: string, contact: { id: string; email: string }, after: { at: string; id: string } | null, limit: number): Promise<{ rows: InboundMessage[]; next: { at: string; id: string } | null }> {
    const qb = this.dataSource
      .getRepository(InboundMessage)
      .createQueryBuilder('m')
      .addSelect('CAST(m.received_at AS text)', 'received_key')
      .where('m.projectId = :projectId AND (m.contactId = :contactId OR (m.contactId IS NULL AND lower(m.fromAddress) = :email))', { projectId, contactId: contact.id, email: contact.email });
    if (after) qb.andWhere('(m.received_at, m.id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))', after);
    const page = await qb.orderBy('m.receivedAt', 'DESC').addOrderBy('m.id', 'DESC').limit(limit + 1).getRawAndEntities();
    const last = page.entities.length > limit ? (page.raw[limit - 1] as { m_id: string; received_key: string }) : null;
    return { rows: page.entities.slice(0, limit), next: last ? { at: last.received_key, id: last.m_id } : null };
  }

  /** The messages `fromContact` lists (recorded with the contact, or without one from its address), by id and storage key. */
  async keysFromContact(projectId: string, contact: { id: string; email: string }, manager?: EntityManager): Promise<Array<{ id: string; storage_key: string }>> {
    return (manager ?? this.dataSource.manager).query(
      `SELECT id, storage_key FROM inbound_messages WHERE project_id = $1 AND (contact_id = $2 OR (contact_id IS NULL AND lower(from_address) = $3))`,
      [projectId, contact.id, contact.email],
    );
  }

  async deleteMany(projectId: string, ids: string[], manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(`DELETE FROM inbound_messages WHERE project_id = $1 AND id = ANY($2::uuid[])`, [projectId, ids]);
  }

  /** Up to `limit` of the project's messages received in `range` (`inbound_messages_project_received_idx`), oldest first. */
  receivedIn(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<Array<{ id: string; storage_key: string }>> {
    return this.dataSource.query(
      `SELECT id, storage_key FROM inbound_messages
        WHERE project_id = $1 AND received_at < $2 AND ($3::timestamptz IS NULL OR received_at >= $3)
        ORDER BY received_at LIMIT $4`,
      [projectId, range.before, range.from, limit],
    );
  }

}
