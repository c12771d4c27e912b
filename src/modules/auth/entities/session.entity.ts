import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from './user.entity';

@Entity('sessions')
@Unique('sessions_token_hash_key', ['tokenHash'])
@Index('sessions_user_idx', ['userId'])
export class SessionRecord {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => User, { name: 'sessions_user_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  userId: string;
  @Column('text') tokenHash: string;
  @Column('text', { nullable: true }) ip: string | null;
  @Column('text', { nullable: true }) userAgent: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) lastSeenAt: Date;
  @Column('timestamptz') expiresAt: Date;
}
