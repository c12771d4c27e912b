import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { User } from './user.entity';

/** Persisted values: renaming them strands issued tokens. */
export type UserTokenKind = 'verify_email' | 'reset_password';

@Entity('user_tokens')
@Unique('user_tokens_token_hash_key', ['tokenHash'])
export class UserToken {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => User, { name: 'user_tokens_user_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  userId: string;
  @Column('text') kind: UserTokenKind;
  @Column('text') tokenHash: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) usedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
