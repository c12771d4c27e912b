import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

@Entity('users')
@Unique('users_email_key', ['email'])
export class User {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text') passwordHash: string;
  @Column('boolean', { default: false }) emailVerified: boolean;
  @Column('timestamptz', { nullable: true }) emailVerifiedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
