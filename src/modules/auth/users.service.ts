import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { AuthRepository } from './auth.repository';
import type { User } from './entities/user.entity';
import { emailTaken } from './auth.errors';

@Injectable()
export class UsersService {
  /** Argon2id at the configured memory cost (`PASSWORD_HASH_MEMORY_KIB`); verifying reads the parameters from the hash. */
  private readonly hashOptions: { type: typeof argon2.argon2id; memoryCost: number };

  constructor(
    private readonly repository: AuthRepository,
    @InjectConfig() config: AppConfig,
  ) {
    this.hashOptions = { type: argon2.argon2id, memoryCost: config.passwordHashMemoryKib };
  }

  async create(email: string, password: string, emailVerified = false): Promise<User> {
    const normalized = email.trim().toLowerCase();
    const passwordHash = await this.hashPassword(password);
    const user = await this.repository.insertUserUnlessTaken({ email: normalized, passwordHash, emailVerified, emailVerifiedAt: emailVerified ? new Date() : null });
    if (!user) throw emailTaken();
    return user;
  }

  findById(id: string): Promise<User | null> {
    return this.repository.findUserById(id);
  }

  /** The email address of each of these users (ids of no user are left out). */
  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    return this.repository.emailsOf(ids);
  }

  findByEmail(email: string): Promise<User | null> {
    return this.repository.findUserByEmail(email.trim().toLowerCase());
  }

  /**
   * The first account of an empty instance (BOOTSTRAP_*), inside the caller's transaction: null
   * when any user exists already. The email counts as verified.
   */
  async createFirstIn(em: EntityManager, email: string, passwordHash: string): Promise<{ id: string } | null> {
    return this.repository.insertFirstUser(email.trim().toLowerCase(), passwordHash, em);
  }

  async count(): Promise<number> {
    return this.repository.countUsers();
  }

  /** Returns the user when the password matches; hashing runs even for unknown emails to keep timing flat. */
  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const user = await this.findByEmail(email);
    if (!user) {
      await this.hashPassword(password);
      return null;
    }
    return (await argon2.verify(user.passwordHash, password)) ? user : null;
  }

  hashPassword(password: string): Promise<string> {
    return argon2.hash(password, this.hashOptions);
  }

  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await this.hashPassword(password);
    await this.repository.setPasswordHash(userId, passwordHash);
  }

  /** Deletes the account: its sessions end, and its tokens and memberships go with it, in one transaction. */
  async delete(userId: string): Promise<void> {
    await this.repository.deleteUser(userId);
  }

  async markEmailVerified(userId: string): Promise<void> {
    await this.repository.markEmailVerified(userId);
  }
}
