// The HTTP surface's limits and trust: rate limit, idempotency window, proxies, and the metrics token.
import { isIP } from 'node:net';
import { ConfigError, Env, int, str } from './env';

export interface HttpConfig {
  rateLimitPerMinute: number;
  idempotencyTtlHours: number;
  /**
   * `TRUST_PROXY`: whose `X-Forwarded-For` names the client (`req.ip`, the login throttle): a hop
   * count (0, the default: nobody's, the peer is the client) or proxy addresses, CIDR ranges and
   * Express's named ranges (`loopback`, `linklocal`, `uniquelocal`). Express's `trust proxy`.
   */
  trustProxy: number | string[];
  /** `METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

export function httpConfig(env: Env): HttpConfig {
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  return {
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 1000, 1, 10_000_000),
    idempotencyTtlHours: int(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 365),
    trustProxy: trustProxy(env),
    metricsToken,
  };
}

const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `TRUST_PROXY`: a hop count, or comma-separated proxy addresses and ranges (see `HttpConfig.trustProxy`). */
function trustProxy(env: Env): number | string[] {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return 0;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 64);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    // Zone ids (fe80::1%eth0) are not addresses Express's proxy-addr can compile.
    const family = address.includes('%') ? 0 : isIP(address);
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!(NAMED_PROXY_RANGES.has(entry) || (family !== 0 && validPrefix && extra === undefined))) {
      throw new ConfigError(
        `TRUST_PROXY must be a hop count (0 to 64) or comma-separated proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal (got "${entry}" in "${raw}")`,
      );
    }
  }
  return entries;
}
