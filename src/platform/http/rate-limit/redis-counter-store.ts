import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import type { AppConfig } from '../../../config/config';
import { CounterHit, CounterStore } from './counter-store';

// One round trip: count, and start the window's expiry on its first hit.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}`;

// One hit back, keeping the window's expiry (DECR keeps the TTL); nothing once the window ended.
const RELEASE_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 0`;

type ScriptedRedis = Redis & {
  counterHit(key: string, windowMs: number): Promise<[number, number]>;
  counterRelease(key: string): Promise<number>;
};

@Injectable()
export class RedisCounterStore extends CounterStore implements OnModuleDestroy {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;

  constructor(config: AppConfig) {
    super();
    // In every key-authenticated request's path: a silent Redis fails the hit within the command
    // timeout (503), and the connection that heard nothing is dropped and reopened.
    const timeout = config.outage.redisCommandTimeoutMs;
    this.redis = new Redis(config.redisUrl!, { maxRetriesPerRequest: 2, enableOfflineQueue: true, commandTimeout: timeout, socketTimeout: timeout, keepAlive: 10_000 }) as ScriptedRedis;
    this.redis.defineCommand('counterHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('counterRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.prefix = `${config.redisPrefix}:counter:`;
  }

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    const [count, ttl] = await this.redis.counterHit(this.prefix + key, windowMs);
    return { count: Number(count), resetMs: Math.max(0, Number(ttl)) };
  }

  async peek(key: string): Promise<CounterHit | null> {
    const [[, count], [, ttl]] = (await this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec()) as [[null, string | null], [null, number]];
    if (count === null || ttl < 0) return null;
    return { count: Number(count), resetMs: ttl };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async release(key: string): Promise<void> {
    await this.redis.counterRelease(this.prefix + key);
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
