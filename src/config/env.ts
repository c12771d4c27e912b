// Reading the environment: the typed parsers every namespace loader uses, and the one error they throw.

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return Number(raw);
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

export function optionalPort(env: Env, name: string): number | undefined {
  return str(env, name) === undefined ? undefined : int(env, name, 0, 0, 65535);
}

/** A DNS host name (letters, digits, hyphens, dots), lower-cased without a trailing dot. */
export function hostName(env: Env, name: string): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (host.length > 253 || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) {
    throw new ConfigError(`${name} must be a host name such as mx.example.com (got "${raw}")`);
  }
  return host;
}
