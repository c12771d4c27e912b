import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { SessionRecord } from './entities/session.entity';

export { SESSION_COOKIE } from '../../platform/http/access';
const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's last-seen time is written at most this often. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

@Injectable()
export class SessionsService {
  constructor(@InjectRepository(SessionRecord) private readonly sessions: Repository<SessionRecord>) {}

  /** Issues a fresh token; the raw token only ever lives in the cookie. */
  async create(userId: string, ip?: string, userAgent?: string): Promise<{ token: string; session: SessionRecord }> {
    const token = randomToken(32);
    const now = new Date();
    const session = await this.sessions.save(
      this.sessions.create({
        userId,
        tokenHash: sha256Hex(token),
        ip: ip ?? null,
        userAgent: userAgent?.slice(0, 512) ?? null,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      }),
    );
    return { token, session };
  }

  async validate(token: string): Promise<SessionRecord | null> {
    const session = await this.sessions.findOneBy({ tokenHash: sha256Hex(token), expiresAt: MoreThan(new Date()) });
    if (session && Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.sessions.update({ id: session.id }, { lastSeenAt: new Date() });
    }
    return session;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sessions.delete({ id: sessionId });
  }

  async revokeToken(token: string): Promise<void> {
    if (token.length <= 128) await this.sessions.delete({ tokenHash: sha256Hex(token) });
  }

  async revokeAllForUser(userId: string): Promise<void> {
    await this.sessions.delete({ userId });
  }

  get ttlMs(): number {
    return SESSION_TTL_MS;
  }
}
