import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Persisted values: renaming them strands issued tokens. */
export type UserTokenKind = 'verify_email' | 'reset_password';

@Entity('user_tokens')
export class UserToken {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') userId: string;
  @Column('text') kind: UserTokenKind;
  @Column('text') tokenHash: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) usedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
