import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An SNS message already handled: SNS retries deliver the same MessageId again, and the key makes each count once. */
@Entity('sns_messages')
@Index('sns_messages_received_idx', ['receivedAt'])
export class SnsMessageRecord {
  @PrimaryColumn('text') messageId: string;
  @Column('text') type: string;
  @Column('text', { nullable: true }) topicArn: string | null;
  @Column('timestamptz', { default: () => 'now()' }) receivedAt: Date;
}
