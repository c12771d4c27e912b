import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InboundMessage } from './entities/inbound-message.entity';

export type NewInboundMessage = Omit<InboundMessage, 'receivedAt'>;

/** `inbound_messages`: every read takes the project first; the purge alone works across projects. */
@Injectable()
export class InboundRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(row: NewInboundMessage, em: EntityManager): Promise<InboundMessage> {
    return em.getRepository(InboundMessage).save(em.getRepository(InboundMessage).create(row));
  }

  findOne(projectId: string, id: string): Promise<InboundMessage | null> {
    return this.dataSource.getRepository(InboundMessage).findOneBy({ projectId, id });
  }

  /** A batch of messages received more than `days` days ago, oldest first. */
  expired(days: number, limit: number): Promise<Array<{ id: string; storage_key: string }>> {
    return this.dataSource.query(
      `SELECT id, storage_key FROM inbound_messages WHERE received_at < now() - $1::int * interval '1 day' ORDER BY received_at LIMIT $2`,
      [days, limit],
    );
  }

  async deleteMany(ids: string[]): Promise<void> {
    await this.dataSource.query(`DELETE FROM inbound_messages WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
