import { Injectable } from '@nestjs/common';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { AuthRepository } from './auth.repository';
import type { SessionRecord } from './entities/session.entity';

export { SESSION_COOKIE } from '../../platform/http/access';
const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's last-seen time is written at most this often. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

@Injectable()
export class SessionsService {
  constructor(private readonly repository: AuthRepository) {}

  /** Issues a fresh token; the raw token only ever lives in the cookie. */
  async create(userId: string, ip?: string, userAgent?: string): Promise<{ token: string; session: SessionRecord }> {
    const token = randomToken(32);
    const now = new Date();
    const session = await this.repository.insertSession({
      userId,
      tokenHash: sha256Hex(token),
      ip: ip ?? null,
      userAgent: userAgent?.slice(0, 512) ?? null,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    });
    return { token, session };
  }

  async validate(token: string): Promise<SessionRecord | null> {
    const session = await this.repository.findLiveSession(sha256Hex(token));
    if (session && Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.repository.touchSession(session.id);
    }
    return session;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.repository.deleteSession(sessionId);
  }

  async revokeToken(token: string): Promise<void> {
    if (token.length <= 128) await this.repository.deleteSessionByTokenHash(sha256Hex(token));
  }

  async revokeAllForUser(userId: string): Promise<void> {
    await this.repository.deleteSessionsOfUser(userId);
  }

  get ttlMs(): number {
    return SESSION_TTL_MS;
  }
}
