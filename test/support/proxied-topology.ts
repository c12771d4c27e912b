import type { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServicesDatabase, TEST_MODE } from './app';
import { ServiceFleet } from './service-process';
import { SmtpReceiver } from './smtp-receiver';
import { TcpProxy } from './tcp-proxy';

export interface ProxiedTopology {
  smtp: SmtpReceiver;
  database: Awaited<ReturnType<typeof createServicesDatabase>>;
  /** The loopback proxy in front of PostgreSQL, to cut or stall. */
  pg: TcpProxy;
  /** The one in front of Redis (services mode), null when the queues are in PostgreSQL. */
  redis: TcpProxy | null;
  /** The ROLE=api process's base URL. */
  base: string;
  /** Stops both processes, the proxies, the SMTP receiver and the database, whatever happened. */
  stop(): Promise<void>;
}

/**
 * The production topology for outage tests: a ROLE=api and a ROLE=worker process, both ready, that
 * reach the machine's PostgreSQL (and in services mode Redis) through loopback proxies the test
 * cuts or stalls, and send by SMTP to a receiver of the test. `env` adds to their settings.
 */
export async function startProxiedTopology(name: string, env: Record<string, string> = {}): Promise<ProxiedTopology> {
  const smtp = await SmtpReceiver.start();
  // The outage resets the service's connections mid-session; the receiver's errors are expected.
  (smtp as unknown as { server: EventEmitter }).server.on('error', () => undefined);
  const database = await createServicesDatabase();
  const pg = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
  const redis = TEST_MODE === 'services' ? await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379) }) : null;
  const proxiedDb = new URL(database.url);
  proxiedDb.port = String(pg.port);
  const shared: Record<string, string> = {
    DATABASE_URL: proxiedDb.toString(),
    ...(redis ? { REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` } : {}),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    APP_SECRET: randomBytes(32).toString('hex'),
    EMAIL_TRANSPORT: 'smtp',
    SMTP_URL: smtp.url,
    DOMAIN_VERIFICATION: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  };
  const fleet = new ServiceFleet(`mailroom-${name}-`, () => shared);
  const stop = async () => {
    await fleet.stopAll();
    await pg.close();
    await redis?.close();
    await smtp.close();
    await database.drop();
  };
  try {
    const api = await fleet.spawn({ ROLE: 'api' }, 'ready');
    await fleet.spawn({ ROLE: 'worker' }, 'ready');
    return { smtp, database, pg, redis, base: api.base, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
