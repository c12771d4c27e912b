import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { invalidCredentials, signupDisabled } from './auth.errors';
import { User } from './entities/user.entity';
import { SessionsService } from './sessions.service';
import { UsersService } from './users.service';

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

@Injectable()
export class AuthService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
  ) {}

  async signup(email: string, password: string, client: ClientInfo): Promise<{ user: User; token: string }> {
    if (this.config.signupDisabled) throw signupDisabled();
    const user = await this.users.create(email, password);
    const { token } = await this.sessions.create(user.id, client.ip, client.userAgent);
    return { user, token };
  }

  /** A new session token on every login, so a token planted before login is useless after it. */
  async login(email: string, password: string, client: ClientInfo): Promise<{ user: User; token: string }> {
    const user = await this.users.verifyCredentials(email, password);
    if (!user) throw invalidCredentials();
    const { token } = await this.sessions.create(user.id, client.ip, client.userAgent);
    return { user, token };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId);
  }
}
