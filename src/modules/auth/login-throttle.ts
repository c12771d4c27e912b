import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../platform/crypto';
import { CounterStore } from '../../platform/http/rate-limit/counter-store';
import { rateLimitExceeded } from '../../platform/http/rate-limit/rate-limit.errors';

const WINDOW_MS = 15 * 60 * 1000;
/** Failed logins per account, and per client IP (higher: offices share addresses), per window. */
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 50;

/** Guessing limits on the shared counter store, so they hold across processes. */
@Injectable()
export class LoginThrottle {
  constructor(private readonly counters: CounterStore) {}

  private keys(email: string, ip: string | undefined) {
    // Emails are hashed so counter keys never carry personal data into Redis.
    return { account: `login:acct:${sha256Hex(email.trim().toLowerCase())}`, ip: `login:ip:${ip ?? 'unknown'}` };
  }

  async assertAllowed(email: string, ip: string | undefined): Promise<void> {
    const keys = this.keys(email, ip);
    const [account, byIp] = await Promise.all([this.counters.peek(keys.account), this.counters.peek(keys.ip)]);
    const blocked = [
      account && account.count >= MAX_FAILURES_PER_ACCOUNT ? account.resetMs : 0,
      byIp && byIp.count >= MAX_FAILURES_PER_IP ? byIp.resetMs : 0,
    ];
    const waitMs = Math.max(...blocked);
    if (waitMs > 0) {
      throw rateLimitExceeded({ 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) }, 'Too many failed login attempts; try again later');
    }
  }

  async recordFailure(email: string, ip: string | undefined): Promise<void> {
    const keys = this.keys(email, ip);
    await Promise.all([this.counters.hit(keys.account, WINDOW_MS), this.counters.hit(keys.ip, WINDOW_MS)]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.counters.clear(this.keys(email, undefined).account);
  }
}
