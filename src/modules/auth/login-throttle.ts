import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { sha256Hex } from '../../platform/crypto';
import { CounterStore } from '../../platform/http/rate-limit/counter-store';
import { rateLimitExceeded } from '../../platform/http/rate-limit/rate-limit.errors';

/**
 * How one scope's attempts are slowed: its first `free` attempts go one after another; after the
 * `free`-th the next waits BASE_DELAY_MS, doubled after each further one, at most MAX_DELAY_MS.
 * The count starts at the scope's first attempt and lasts `windowMs`.
 */
interface Pace {
  name: 'source' | 'account' | 'account-wide';
  free: number;
  windowMs: number;
}

const BASE_DELAY_MS = 2_000;
const MAX_DELAY_MS = 15 * 60 * 1000;

/** Attempts from one source at one account since its last successful login (it clears them). */
export const ACCOUNT_PACE: Pace = { name: 'account', free: 5, windowMs: 24 * 3600 * 1000 };
/** Failed attempts from one source at any account (higher: offices share addresses). */
export const SOURCE_PACE: Pace = { name: 'source', free: 30, windowMs: 3600 * 1000 };
/**
 * Failed attempts at one account from every source it has not signed in from lately: many
 * sources guessing at one account (a botnet) meet this one pace, while the owner's own sources
 * (a success in the last KNOWN_SOURCE_MS) never count toward it nor wait for it.
 */
export const ACCOUNT_WIDE_PACE: Pace = { name: 'account-wide', free: 20, windowMs: 3600 * 1000 };
/** How long a successful sign-in (or the sign-up) makes its source one of the account's own. */
export const KNOWN_SOURCE_MS = 30 * 24 * 3600 * 1000;

/** The wait after a scope's `attempt`-th attempt (1-based) before it may try again. */
export function delayAfter(pace: Pace, attempt: number): number {
  if (attempt < pace.free) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempt - pace.free, 30));
}

/**
 * The source a throttle counts: the client address (`req.ip`, as TRUST_PROXY decides), an IPv6
 * client by its /64 (one host commonly holds the whole prefix), an IPv4-mapped one as IPv4.
 */
export function sourceOf(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${prefix.toString()}/64`;
}

interface Scope {
  pace: Pace;
  key: string;
}

/** One attempt's scopes, as `begin` counted them, for `succeeded` to take back. */
export interface LoginAttempt {
  scopes: Scope[];
  knownKey: string;
}

/**
 * Password guessing is slowed, never locked: the owner signing in from one of their own sources
 * is not held up by an attacker hammering their account. Three scopes: (source, account),
 * (source), and (account) for the sources the account has not signed in from lately. While a
 * scope's delay runs, attempts answer 429 with Retry-After without checking the password (no
 * oracle); each attempt is counted on the shared counter store before the password is checked,
 * so parallel attempts cannot slip through a delay, and a success takes its count back, so only
 * failures add up. The counters are shared across processes (Redis, else PostgreSQL; memory in
 * embedded mode).
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly counters: CounterStore) {}

  private keys(email: string, ip: string | undefined) {
    const source = sourceOf(ip);
    // Emails are hashed so counter keys never carry personal data into Redis.
    const account = sha256Hex(email.trim().toLowerCase());
    return { source, account, knownKey: `login:known:${source}:${account}` };
  }

  /** The account's own source from now on (a sign-up, a successful sign-in). */
  async trustSource(email: string, ip: string | undefined): Promise<void> {
    await this.trust(this.keys(email, ip).knownKey);
  }

  /** A fresh window, so a source in use stays known KNOWN_SOURCE_MS after its last success. */
  private async trust(knownKey: string): Promise<void> {
    await this.counters.clear(knownKey);
    await this.counters.hit(knownKey, KNOWN_SOURCE_MS);
  }

  /** Counts this attempt and claims the wait after it; throws 429 while a wait runs. */
  async begin(email: string, ip: string | undefined): Promise<LoginAttempt> {
    const { source, account, knownKey } = this.keys(email, ip);
    const scopes: Scope[] = [
      { pace: ACCOUNT_PACE, key: `login:account:${source}:${account}` },
      { pace: SOURCE_PACE, key: `login:source:${source}` },
    ];
    if (!(await this.counters.peek(knownKey))) scopes.push({ pace: ACCOUNT_WIDE_PACE, key: `login:account-wide:${account}` });
    const gates = await Promise.all(scopes.map((scope) => this.counters.peek(`${scope.key}:wait`)));
    refuseWhile(gates.map((gate) => gate?.resetMs ?? 0));
    const attempts = await Promise.all(scopes.map((scope) => this.counters.hit(scope.key, scope.pace.windowMs)));
    const claims = await Promise.all(
      scopes.map(async (scope, i) => {
        const delayMs = delayAfter(scope.pace, attempts[i].count);
        if (delayMs === 0) return 0;
        const gate = await this.counters.hit(`${scope.key}:wait`, delayMs);
        // Another attempt of this scope claimed the wait first: this one is over the pace.
        return gate.count > 1 ? gate.resetMs : 0;
      }),
    );
    refuseWhile(claims);
    return { scopes, knownKey };
  }

  /**
   * The owner proved the password from this source: its attempts at the account start over, the
   * source becomes one of the account's own, and this attempt no longer counts in the wider scopes.
   */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    const [pair, ...wider] = attempt.scopes;
    await Promise.all([this.counters.clear(pair.key), this.counters.clear(`${pair.key}:wait`), ...wider.map((scope) => this.counters.release(scope.key))]);
    await this.trust(attempt.knownKey);
  }
}

function refuseWhile(waitsMs: number[]): void {
  const waitMs = Math.max(0, ...waitsMs);
  if (waitMs > 0) {
    throw rateLimitExceeded({ 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) }, 'Too many login attempts from this address; wait for Retry-After seconds');
  }
}
