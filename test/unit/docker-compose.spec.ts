import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docker/compose.yml as Compose reads it: variables are interpolated from the shell and
 * docker/.env before anything runs. No Compose binary here, so this applies the Compose
 * specification's interpolation rules (`$$`, `$VAR`, `${VAR}`, `${VAR:-d}`, `${VAR-d}`,
 * `${VAR:?err}`, `${VAR?err}`, `${VAR:+alt}`, `${VAR+alt}`) to the file's text.
 */
const COMPOSE = readFileSync(join(__dirname, '..', '..', 'docker', 'compose.yml'), 'utf8')
  .split('\n')
  // Compose interpolates values; comments are not read.
  .filter((line) => !line.trimStart().startsWith('#'))
  .join('\n');

class MissingVariable extends Error {}

function interpolate(text: string, env: Record<string, string>): string {
  const value = (name: string, op: string | undefined, arg: string): string => {
    const set = Object.prototype.hasOwnProperty.call(env, name);
    const nonEmpty = set && env[name] !== '';
    switch (op) {
      case undefined:
        return env[name] ?? '';
      case ':-':
        return nonEmpty ? env[name] : interpolate(arg, env);
      case '-':
        return set ? env[name] : interpolate(arg, env);
      case ':?':
        if (!nonEmpty) throw new MissingVariable(`${name}: ${arg}`);
        return env[name];
      case '?':
        if (!set) throw new MissingVariable(`${name}: ${arg}`);
        return env[name];
      case ':+':
        return nonEmpty ? interpolate(arg, env) : '';
      case '+':
        return set ? interpolate(arg, env) : '';
      default:
        throw new Error(`unknown operator ${op}`);
    }
  };
  return text.replace(/\$\$|\$(?![{$A-Za-z_])|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, braced?: string, op?: string, arg?: string, bare?: string) => {
    if (match === '$$') return '$';
    // Compose refuses a `$` that starts no variable ("invalid template"): write `$$`.
    if (match === '$') throw new Error('invalid template: a lone $ (write $$)');
    if (bare !== undefined) return value(bare, undefined, '');
    return value(braced!, op, arg ?? '');
  });
}

/** Each `KEY: value` line of the file after interpolation, for the keys asked. */
const entries = (text: string, key: string): string[] =>
  [...text.matchAll(new RegExp(`^\\s*${key}:\\s*(.*)$`, 'gm'))].map((m) => m[1].trim().replace(/^"(.*)"$/, '$1'));

describe('docker/compose.yml', () => {
  const SECRET = 'f'.repeat(64);

  it('will not start without an APP_SECRET: Compose stops with a message that names it', () => {
    expect(() => interpolate(COMPOSE, {})).toThrow(MissingVariable);
    expect(() => interpolate(COMPOSE, {})).toThrow(/^APP_SECRET: .*APP_SECRET/);
    // An empty value is not a secret either.
    expect(() => interpolate(COMPOSE, { APP_SECRET: '' })).toThrow(/^APP_SECRET: /);
  });

  it('passes the operator’s secret, and only it, to the api and worker processes', () => {
    const resolved = interpolate(COMPOSE, { APP_SECRET: SECRET });
    // One entry, in the environment both services merge (<<: *mailroom-env).
    expect(entries(resolved, 'APP_SECRET')).toEqual([SECRET]);
    expect(COMPOSE.match(/<<: \*mailroom-env/g)).toHaveLength(2);
  });

  it('has no default for any secret', () => {
    for (const name of ['APP_SECRET', 'METRICS_TOKEN', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'BOOTSTRAP_PASSWORD']) {
      expect({ name, defaulted: new RegExp(`\\$\\{${name}:?[-+]`).test(COMPOSE) }).toEqual({ name, defaulted: false });
    }
  });
});

describe('docker/compose.yml: SMTP', () => {
  const SECRET = 'f'.repeat(64);

  it('publishes submission (587 STARTTLS, 465 implicit TLS) and inbound (25) from the api service, host ports from the same variables', () => {
    const resolved = interpolate(COMPOSE, { APP_SECRET: SECRET });
    const ports = [...resolved.matchAll(/^\s*- "(\d+):(\d+)"$/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(ports).toEqual(expect.arrayContaining(['587:587', '465:465', '25:25']));
    expect(entries(resolved, 'SMTP_SUBMISSION_PORT')).toEqual(['587']);
    expect(entries(resolved, 'SMTP_SUBMISSION_TLS_PORT')).toEqual(['465']);
    expect(entries(resolved, 'SMTP_INBOUND_PORT')).toEqual(['25']);
    const moved = interpolate(COMPOSE, { APP_SECRET: SECRET, SMTP_SUBMISSION_PORT: '2587', SMTP_INBOUND_PORT: '2525' });
    expect([...moved.matchAll(/^\s*- "(\d+):(\d+)"$/gm)].map((m) => `${m[1]}:${m[2]}`)).toEqual(expect.arrayContaining(['2587:587', '2525:25']));
  });

  it('mounts the certificate directory read-only and passes the certificate variables', () => {
    const resolved = interpolate(COMPOSE, { APP_SECRET: SECRET, SMTP_TLS_CERT_FILE: '/etc/mailroom/tls/fullchain.pem' });
    expect(resolved).toContain('- ./tls:/etc/mailroom/tls:ro');
    expect(entries(resolved, 'SMTP_TLS_CERT_FILE')).toEqual(['/etc/mailroom/tls/fullchain.pem']);
  });

  it('names only variables that .env.example documents', () => {
    const example = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const named = new Set([...COMPOSE.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
    // Mailroom's own environment (the x-mailroom anchor, api and worker), not the postgres image's.
    const mailroomPart = COMPOSE.slice(0, COMPOSE.indexOf('\n  postgres:'));
    const inContainer = [...mailroomPart.matchAll(/^\s{4,6}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
    expect(inContainer).toEqual(expect.arrayContaining(['DATABASE_URL', 'SMTP_SUBMISSION_PORT', 'SMTP_TLS_KEY_FILE']));
    for (const name of [...named, ...inContainer]) expect({ name, documented: documented.has(name) }).toEqual({ name, documented: true });
  });
});
