import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { SessionRecord } from './entities/session.entity';
import type { UserTokenKind } from './entities/user-token.entity';
import { User } from './entities/user.entity';

export type NewSession = Pick<SessionRecord, 'userId' | 'tokenHash' | 'ip' | 'userAgent' | 'lastSeenAt' | 'expiresAt'>;

/**
 * The auth module's tables: users, sessions, user_tokens. Accounts exist before and across
 * projects, so none of these methods is project-scoped.
 */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get users() {
    return this.dataSource.getRepository(User);
  }

  private get sessions() {
    return this.dataSource.getRepository(SessionRecord);
  }

  /** Inserts the user unless the address is taken; the stored user, or null when it was. */
  async insertUserUnlessTaken(values: Pick<User, 'email' | 'passwordHash' | 'emailVerified' | 'emailVerifiedAt'>): Promise<User | null> {
    const inserted = await this.users.createQueryBuilder().insert().values(values).orIgnore().returning('*').execute();
    if ((inserted.raw as unknown[]).length === 0) return null;
    return this.users.findOneByOrFail({ email: values.email });
  }

  /**
   * The first account of an empty instance, in the caller's transaction: null when any user exists
   * already. The email counts as verified.
   */
  async insertFirstUser(email: string, passwordHash: string, manager: EntityManager): Promise<{ id: string } | null> {
    if ((await manager.count(User)) > 0) return null;
    const [user]: Array<{ id: string }> = await manager.query(
      `INSERT INTO users (email, password_hash, email_verified, email_verified_at) VALUES ($1, $2, true, now()) RETURNING id`,
      [email, passwordHash],
    );
    return user;
  }

  findUserById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email });
  }

  /** The email address of each of these users (ids of no user are left out). */
  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    const users = await this.users.find({ select: { id: true, email: true }, where: { id: In(ids) } });
    return new Map(users.map((u) => [u.id, u.email]));
  }

  countUsers(): Promise<number> {
    return this.users.count();
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.users.update({ id: userId }, { passwordHash });
  }

  async markEmailVerified(userId: string): Promise<void> {
    await this.users.update({ id: userId, emailVerified: false }, { emailVerified: true, emailVerifiedAt: new Date() });
  }

  /** A password reset: the new hash, and the address counts as verified (the mailbox owner proved control of it). */
  async setPasswordAfterReset(userId: string, passwordHash: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE users SET password_hash = $2, email_verified = true, email_verified_at = COALESCE(email_verified_at, now()), updated_at = now() WHERE id = $1`,
      [userId, passwordHash],
    );
  }

  insertSession(values: NewSession): Promise<SessionRecord> {
    return this.sessions.save(this.sessions.create(values));
  }

  /** The unexpired session of this token digest. */
  findLiveSession(tokenHash: string): Promise<SessionRecord | null> {
    return this.sessions.findOneBy({ tokenHash, expiresAt: MoreThan(new Date()) });
  }

  async touchSession(sessionId: string): Promise<void> {
    await this.sessions.update({ id: sessionId }, { lastSeenAt: new Date() });
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.sessions.delete({ id: sessionId });
  }

  async deleteSessionByTokenHash(tokenHash: string): Promise<void> {
    await this.sessions.delete({ tokenHash });
  }

  /** Ends every session of the user (in the caller's transaction with `manager`). */
  async deleteSessionsOfUser(userId: string, manager?: EntityManager): Promise<void> {
    if (manager) await manager.query(`DELETE FROM sessions WHERE user_id = $1`, [userId]);
    else await this.sessions.delete({ userId });
  }

  /** Ends the user's sessions and deletes the user (tokens and project memberships cascade), in one transaction. */
  async deleteUser(userId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.deleteSessionsOfUser(userId, em);
      await em.query(`DELETE FROM users WHERE id = $1`, [userId]);
    });
  }

  /** A new token of `kind`, valid `ttlSeconds`; the user's earlier unused tokens of that kind are spent in the same transaction. */
  async replaceToken(userId: string, kind: UserTokenKind, tokenHash: string, ttlSeconds: number): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.query(`UPDATE user_tokens SET used_at = now() WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`, [userId, kind]);
      await em.query(
        `INSERT INTO user_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))`,
        [userId, kind, tokenHash, ttlSeconds],
      );
    });
  }

  /** Marks the token used in one atomic update; its user, or null when it is unknown, used or expired. */
  async redeemToken(tokenHash: string, kind: UserTokenKind, manager: EntityManager = this.dataSource.manager): Promise<string | null> {
    const [rows]: [Array<{ user_id: string }>, number] = await manager.query(
      `UPDATE user_tokens SET used_at = now()
       WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING user_id`,
      [tokenHash, kind],
    );
    return rows[0]?.user_id ?? null;
  }
}
