import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { sha256Hex } from '../../platform/crypto';
import { CounterStore } from '../../platform/http/rate-limit/counter-store';
import { logger } from '../../platform/logging/logger';
import { SystemMailer, SystemMessage } from '../../platform/mail/system-mailer';
import { passwordResetMail, verificationMail } from './account-mails';
import { invalidCredentials, invalidToken, signupDisabled, wrongPassword } from './auth.errors';
import { AuthRepository } from './auth.repository';
import { User } from './entities/user.entity';
import type { UserTokenKind } from './entities/user-token.entity';
import { LoginThrottle } from './login-throttle';
import { SessionsService } from './sessions.service';
import { UserTokensService } from './user-tokens.service';
import { UsersService } from './users.service';

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
  /** The session token the client presented, if any: replaced on login. */
  currentToken?: string;
}

/** Account mails of one kind per address per hour; more are dropped silently (no mail bombing). */
const MAILS_PER_HOUR = 5;

@Injectable()
export class AuthService {
  private readonly log = logger('auth');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: AuthRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: UserTokensService,
    private readonly throttle: LoginThrottle,
    private readonly counters: CounterStore,
    private readonly mailer: SystemMailer,
  ) {}

  async signup(email: string, password: string, client: ClientInfo): Promise<{ user: User; token: string }> {
    if (this.config.signupDisabled) throw signupDisabled();
    const user = await this.users.create(email, password);
    await this.throttle.trustSource(email, client.ip);
    const { token } = await this.sessions.create(user.id, client.ip, client.userAgent);
    await this.sendVerification(user);
    return { user, token };
  }

  /** A new session token on every login (the presented one is revoked), so a planted token is useless after it. */
  async login(email: string, password: string, client: ClientInfo): Promise<{ user: User; token: string }> {
    const attempt = await this.throttle.begin(email, client.ip);
    const user = await this.users.verifyCredentials(email, password);
    if (!user) throw invalidCredentials();
    await this.throttle.succeeded(attempt);
    if (client.currentToken) await this.sessions.revokeToken(client.currentToken);
    const { token } = await this.sessions.create(user.id, client.ip, client.userAgent);
    return { user, token };
  }

  /**
   * The signed-in user proves the password again before an irreversible change: paced as sign-ins
   * are (429 while a wait runs), 403 when wrong.
   */
  async confirmPassword(userId: string, password: string, ip?: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw wrongPassword();
    const attempt = await this.throttle.begin(user.email, ip);
    if (!(await this.users.verifyCredentials(user.email, password))) throw wrongPassword();
    await this.throttle.succeeded(attempt);
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId);
  }

  async verifyEmail(token: string): Promise<User> {
    const userId = await this.tokens.redeem(token, 'verify_email');
    if (!userId) throw invalidToken();
    await this.users.markEmailVerified(userId);
    const user = await this.users.findById(userId);
    if (!user) throw invalidToken();
    return user;
  }

  /** Answers the same whether or not the address has an account. */
  async requestVerification(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (user && !user.emailVerified) await this.sendVerification(user);
  }

  /** Answers the same whether or not the address has an account. */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || !(await this.mayMail(user, 'reset_password'))) return;
    const token = await this.tokens.issue(user.id, 'reset_password');
    this.deliver(passwordResetMail(user.email, this.config.publicUrl, token));
  }

  /** Sets the password, spends the token and ends every session of the user, atomically. */
  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await this.users.hashPassword(password);
    const done = await this.db.transaction(async (em) => {
      const userId = await this.tokens.redeem(token, 'reset_password', em);
      if (!userId) return false;
      await this.repository.setPasswordAfterReset(userId, passwordHash, em);
      await this.repository.deleteSessionsOfUser(userId, em);
      return true;
    });
    if (!done) throw invalidToken();
  }

  private async sendVerification(user: User): Promise<void> {
    if (!(await this.mayMail(user, 'verify_email'))) return;
    const token = await this.tokens.issue(user.id, 'verify_email');
    this.deliver(verificationMail(user.email, this.config.publicUrl, token));
  }

  private async mayMail(user: User, kind: UserTokenKind): Promise<boolean> {
    const { count } = await this.counters.hit(`account-mail:${kind}:${sha256Hex(user.id)}`, 3600 * 1000);
    return count <= MAILS_PER_HOUR;
  }

  /** Not awaited: the answer's timing must not tell whether an account exists. */
  private deliver(message: SystemMessage): void {
    this.mailer.send(message).catch((err: unknown) => this.log.error({ err, subject: message.subject }, 'account mail failed'));
  }
}
