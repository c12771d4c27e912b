import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { affectedCount } from '../../../platform/database/query-results';

/** `sns_messages`: the SNS MessageIds handled, so each is handled once. Not project data (an SNS message names no project). */
@Injectable()
export class SnsMessagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records the MessageId; false when it was already recorded (a replay). */
  async claim(messageId: string, type: string, topicArn: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO sns_messages (message_id, type, topic_arn) VALUES ($1, $2, $3) ON CONFLICT (message_id) DO NOTHING RETURNING message_id`,
      [messageId, type, topicArn],
    );
    return affectedCount(rows) > 0;
  }

  /** Forgets the MessageId so SNS's retry of it is handled again. */
  async unclaim(messageId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sns_messages WHERE message_id = $1`, [messageId]);
  }

  /** Drops the MessageIds received more than `days` days ago. */
  async purgeExpired(days: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM sns_messages WHERE received_at < now() - $1::int * interval '1 day'`, [days]);
  }
}
