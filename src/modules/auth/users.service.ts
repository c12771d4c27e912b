import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { EntityManager, In, Repository } from 'typeorm';
import { User } from './entities/user.entity';
import { emailTaken } from './auth.errors';

@Injectable()
export class UsersService {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  async create(email: string, password: string, emailVerified = false): Promise<User> {
    const normalized = email.trim().toLowerCase();
    const passwordHash = await argon2.hash(password, { type: argon2.argon2id });
    const inserted = await this.users
      .createQueryBuilder()
      .insert()
      .values({ email: normalized, passwordHash, emailVerified, emailVerifiedAt: emailVerified ? new Date() : null })
      .orIgnore()
      .returning('*')
      .execute();
    if (inserted.raw.length === 0) throw emailTaken();
    return this.users.findOneByOrFail({ email: normalized });
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** The email address of each of these users (ids of no user are left out). */
  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const users = await this.users.find({ select: { id: true, email: true }, where: { id: In(ids) } });
    return new Map(users.map((u) => [u.id, u.email]));
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: email.trim().toLowerCase() });
  }

  /**
   * The first account of an empty instance (BOOTSTRAP_*), inside the caller's transaction: null
   * when any user exists already. The email counts as verified.
   */
  async createFirstIn(em: EntityManager, email: string, passwordHash: string): Promise<{ id: string } | null> {
    if ((await em.count(User)) > 0) return null;
    const [user]: Array<{ id: string }> = await em.query(
      `INSERT INTO users (email, password_hash, email_verified, email_verified_at) VALUES ($1, $2, true, now()) RETURNING id`,
      [email.trim().toLowerCase(), passwordHash],
    );
    return user;
  }

  async count(): Promise<number> {
    return this.users.count();
  }

  /** Returns the user when the password matches; hashing runs even for unknown emails to keep timing flat. */
  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const user = await this.findByEmail(email);
    if (!user) {
      await argon2.hash(password, { type: argon2.argon2id });
      return null;
    }
    return (await argon2.verify(user.passwordHash, password)) ? user : null;
  }

  hashPassword(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await this.hashPassword(password);
    await this.users.update({ id: userId }, { passwordHash });
  }

  async markEmailVerified(userId: string): Promise<void> {
    await this.users.update({ id: userId, emailVerified: false }, { emailVerified: true, emailVerifiedAt: new Date() });
  }
}
