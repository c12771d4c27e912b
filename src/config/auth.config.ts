// Accounts and signing: the application secret, signup, and the user created on a first start.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, Env, bool, int, str } from './env';

export interface AuthConfig {
  appSecret: string;
  signupDisabled: boolean;
  /**
   * Argon2id's memory per password hash, in KiB (`PASSWORD_HASH_MEMORY_KIB`, default 65,536 = 64 MiB,
   * argon2's own default; time cost 3, parallelism 4). Each hash costs ~0.2 s of CPU at the default;
   * a machine too small for that may lower it (OWASP's floor for argon2id is 19,456 KiB at time
   * cost 2). Hashes made under another value still verify: each hash carries its parameters.
   */
  passwordHashMemoryKib: number;
  bootstrap?: { email: string; password: string };
}

/** The value docker/compose.yml once defaulted to: published, so it signs nothing. */
const PUBLISHED_SECRETS = new Set(['change-me-to-at-least-32-random-characters']);

/** Without `APP_SECRET`, the secret is read from (or first written to) `$DATA_DIR/secret`. */
export function authConfig(env: Env, dataDir: string): AuthConfig {
  const bootstrapEmail = str(env, 'BOOTSTRAP_EMAIL');
  const bootstrapPassword = str(env, 'BOOTSTRAP_PASSWORD');
  if (Boolean(bootstrapEmail) !== Boolean(bootstrapPassword)) {
    throw new ConfigError('BOOTSTRAP_EMAIL and BOOTSTRAP_PASSWORD must be set together');
  }
  if (bootstrapPassword !== undefined && bootstrapPassword.length < 8) {
    throw new ConfigError('BOOTSTRAP_PASSWORD must be at least 8 characters');
  }
  const appSecret = str(env, 'APP_SECRET');
  if (appSecret !== undefined && appSecret.length < 32) {
    throw new ConfigError('APP_SECRET must be at least 32 characters');
  }
  if (appSecret !== undefined && PUBLISHED_SECRETS.has(appSecret)) {
    throw new ConfigError('APP_SECRET is the published example value; set your own, e.g. the output of openssl rand -hex 32');
  }
  const signupDisabled = bool(env, 'SIGNUP_DISABLED', false);
  return {
    appSecret: appSecret ?? loadOrCreateSecret(dataDir),
    signupDisabled,
    passwordHashMemoryKib: int(env, 'PASSWORD_HASH_MEMORY_KIB', 65_536, 1_024, 1_048_576),
    bootstrap: bootstrapEmail && bootstrapPassword ? { email: bootstrapEmail.toLowerCase(), password: bootstrapPassword } : undefined,
  };
}

/** Reads `$DATA_DIR/secret`, creating it once with 32 random bytes when absent. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
