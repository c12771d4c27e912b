import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { parse as parseYaml } from 'yaml';

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

/**
 * What the README and docs/operations.md promise of the production stack, read the way Compose
 * and Docker read the files: compose.yml parsed as YAML after interpolation (merge keys `<<`
 * resolved), the Dockerfile through dockerfile-ast.
 */
describe('the production stack as the README promises it', () => {
  const ROOT = join(__dirname, '..', '..');
  type Service = {
    image?: string;
    build?: { context: string; dockerfile: string };
    environment?: Record<string, string>;
    ports?: string[];
    volumes?: string[];
    healthcheck?: { test: string[] };
    depends_on?: Record<string, { condition: string }>;
  };
  const stack = parseYaml(interpolate(COMPOSE, { APP_SECRET: 'f'.repeat(64) }), { merge: true }) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8'));
  const instructions = (keyword: string) => dockerfile.getInstructions().filter((i) => i.getKeyword() === keyword);

  it('runs an api, a worker, PostgreSQL and Redis, each with a health check, the two roles after their dependencies are healthy', () => {
    expect(Object.keys(stack.services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    for (const [name, service] of Object.entries(stack.services)) expect({ name, healthcheck: Array.isArray(service.healthcheck?.test) }).toEqual({ name, healthcheck: true });
    for (const role of ['api', 'worker']) {
      const service = stack.services[role];
      expect(service.environment?.ROLE).toBe(role);
      expect(service.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
      expect(service.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      // Readiness (database, queues, listeners), not liveness: a role is healthy when it can work.
      expect(service.healthcheck!.test.join(' ')).toContain('/health/ready');
      expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(service.environment?.REDIS_URL).toBe('redis://redis:6379');
    }
  });

  it('publishes HTTP and the three SMTP listeners from the api only, where the api listens on them', () => {
    const api = stack.services.api;
    const inside = (ports: string[] | undefined) => (ports ?? []).map((p) => p.split(':').pop()).sort();
    expect(inside(api.ports)).toEqual(['25', '465', '587', '8080']);
    expect([api.environment?.PORT, api.environment?.SMTP_SUBMISSION_PORT, api.environment?.SMTP_SUBMISSION_TLS_PORT, api.environment?.SMTP_INBOUND_PORT]).toEqual([
      '8080',
      '587',
      '465',
      '25',
    ]);
    expect(stack.services.worker.ports).toBeUndefined();
    // The image declares the same ports.
    const exposed = instructions('EXPOSE').flatMap((i) => i.getArguments().map((a) => a.getValue()));
    expect(exposed.sort()).toEqual(['25', '465', '587', '8080']);
  });

  it('keeps data in named volumes: uploads and inbound mail shared by both roles, the database, the queues', () => {
    expect(Object.keys(stack.volumes).sort()).toEqual(['mailroom-data', 'postgres-data', 'redis-data']);
    for (const role of ['api', 'worker']) expect(stack.services[role].volumes).toContain('mailroom-data:/data');
    expect(stack.services.api.environment?.DATA_DIR).toBe('/data');
    expect(stack.services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(stack.services.redis.volumes).toEqual(['redis-data:/data']);
  });

  it('builds an image from files that exist, runs it unprivileged with /data as a volume, and starts it as npm start does', () => {
    // Every COPY from the build context names a path in the repository (a missing one fails the build).
    for (const copy of instructions('COPY').filter((i) => !/--from=/.test(i.getTextContent()))) {
      const args = copy.getArguments().map((a) => a.getValue()).filter((a) => !a.startsWith('--'));
      for (const source of args.slice(0, -1)) expect({ source, exists: existsSync(join(ROOT, source)) }).toEqual({ source, exists: true });
    }
    expect(instructions('FROM').map((i) => i.getArguments()[0].getValue())).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
    expect(instructions('USER').map((i) => i.getArgumentsContent())).toEqual(['node']);
    expect(instructions('VOLUME').map((i) => i.getArgumentsContent())).toEqual(['["/data"]']);
    expect(instructions('HEALTHCHECK')).toHaveLength(1);
    expect(instructions('CMD').map((i) => i.getArgumentsContent())).toEqual(['["node", "scripts/start.js"]']);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start).toBe('node scripts/start.js');
  });

  it('is the README’s command, and docs/operations.md describes the same topology without Docker', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('docker compose -f docker/compose.yml up --build');
    const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect(operations).toMatch(/ROLE=api/);
    expect(operations).toMatch(/ROLE=worker/);
    expect(operations).toMatch(/PROCESSES=N/);
  });
});
