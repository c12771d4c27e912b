// The process itself: where it listens, its public address, its data directory, its role and its log level.
import { isAbsolute, resolve } from 'node:path';
import { Env, int, oneOf, str, url } from './env';

export type Role = 'all' | 'api' | 'worker';

export interface ServerConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  role: Role;
  /** `PROCESSES`: copies of the service this command starts (node:cluster, one shared port); services mode only. */
  processes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `WEB_DIST_DIR`: the built dashboard served under `/app/` (default `dist/web`, written by `npm run build`). */
  webDistDir: string;
}

export function serverConfig(env: Env): ServerConfig {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '0.0.0.0';
  const rawDataDir = str(env, 'DATA_DIR') ?? './data';
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(process.cwd(), rawDataDir);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    publicUrl,
    dataDir,
    role: oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all'),
    processes: int(env, 'PROCESSES', 1, 1, 64),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    webDistDir: webDistDir(env),
  };
}

/**
 * Relative values are taken from the working directory like DATA_DIR. The default is found from
 * this file, so it holds from the sources (`src/config`) and the build (`dist/config`) alike.
 */
function webDistDir(env: Env): string {
  const raw = str(env, 'WEB_DIST_DIR');
  if (raw === undefined) return resolve(__dirname, '..', '..', 'dist', 'web');
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}
