import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, TestProject } from '../support/app';
import { freePort, SpawnedService, spawnService, stopService, untilListening } from '../support/service-process';
import { pause, waitFor } from '../support/wait';
import { faults, WebhookCall, WebhookReceiver } from '../support/webhook-receiver';

const OUTAGE_MS = 15_000;
const OUTAGE_EVENTS = 40;

/**
 * Event webhooks through crashes and a receiver outage, in the deployments of each test mode:
 * services mode runs the compose topology (a ROLE=api and a ROLE=worker process on PostgreSQL
 * and Redis), and the worker is the process killed; embedded mode runs the one process of the
 * embedded deployment (its database inside it), killed and restarted on the same data directory.
 * A worker killed with SIGKILL while a receiver holds its request open leaves the delivery to be
 * retried by the next worker; a receiver down for a while then back gets every event, none twice
 * to a 2xx. The retry schedule is shortened by configuration (1 s, 2 s, 4 s, 8 s, …) and spans
 * more than the outage.
 */
// Not on the session fixture: the service processes are spawned, and one is killed with SIGKILL.
describe('event webhooks across a worker crash and a receiver outage', () => {
  jest.setTimeout(300_000);

  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    // info: untilListening() waits for the "Mailroom listening" line.
    LOG_LEVEL: 'info',
    APP_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000,8000,8000,8000',
    // The sweep queues again a pending delivery overdue by this grace; an attempt in flight is
    // not overdue (its claim holds it for a 30 s lease), so a worker killed mid-attempt leaves
    // its delivery to be retried about 30 s later.
    WEBHOOK_SWEEP_INTERVAL_MS: '1000',
    WEBHOOK_SWEEP_GRACE_MS: '2000',
  };
  const dirs: string[] = [];
  /** Every process spawned, stopped in afterAll whatever happened. */
  const spawned: SpawnedService[] = [];
  let database: { url: string; drop(): Promise<void> } | undefined;
  let hooks: WebhookReceiver;
  let api: { base: string; service: SpawnedService };
  /** The process that delivers: the worker (services mode) or the one process (embedded). */
  let worker: SpawnedService;
  let startWorker: () => Promise<SpawnedService>;
  let project: TestProject;
  /** What the crash test saw, for the test after it. */
  let crash: { eventId: string; beside: WebhookCall[] } | undefined;

  const call = (method: 'get' | 'post' | 'patch', path: string, body?: object) => {
    const req = request(api.base)[method](path).set('Authorization', `Bearer ${project.secretKey}`);
    return body ? req.send(body) : req;
  };
  const trackEvent = async (email: string, event: string) => (await call('post', '/v1/track', { email, event }).expect(200)).body.data.event as string;
  const createEndpoint = async (path: string, events: string[]) => {
    const created = (await call('post', '/webhooks', { url: hooks.url(path), events }).expect(201)).body as { id: string; secret: string };
    hooks.secret(path, created.secret);
    return created;
  };
  const delivery = async (hookId: string, eventId: string) => {
    const list = (await call('get', `/webhooks/${hookId}/deliveries`).query({ limit: 100 }).expect(200)).body.data as Array<{ id: string; eventId: string; status: string }>;
    return list.find((d) => d.eventId === eventId);
  };

  beforeAll(async () => {
    hooks = await WebhookReceiver.start();
    const spawnOn = async (extra: Record<string, string>) => {
      const dir = extra.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mailroom-wh-crash-'));
      if (!dirs.includes(dir)) dirs.push(dir);
      const service = spawnService({ ...env, PORT: String(await freePort()), DATA_DIR: dir, ...extra });
      spawned.push(service);
      await untilListening(service);
      return service;
    };
    if (TEST_MODE === 'services') {
      database = await createServicesDatabase();
      const shared = { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` };
      const apiPort = await freePort();
      api = { base: `http://127.0.0.1:${apiPort}`, service: await spawnOn({ ...shared, ROLE: 'api', PORT: String(apiPort) }) };
      startWorker = () => spawnOn({ ...shared, ROLE: 'worker' });
      worker = await startWorker();
    } else {
      // The embedded deployment is one process: it is the worker, restarted on its data directory and port.
      const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-wh-crash-'));
      const port = String(await freePort());
      startWorker = () => spawnOn({ DATA_DIR: dataDir, PORT: port });
      worker = await startWorker();
      api = { base: `http://127.0.0.1:${port}`, service: worker };
    }
    project = await createProject(api.base);
  }, 300_000);

  afterAll(async () => {
    for (const service of spawned) await stopService(service);
    await hooks?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('retries a delivery whose worker was killed with SIGKILL mid-attempt; it arrives once', async () => {
    const hook = await createEndpoint('/crash', ['crash.*']);
    // A second endpoint of the same event answers at once: its delivery was made beside the held one.
    const besideHook = await createEndpoint('/crash-beside', ['crash.*']);
    hooks.respondOnce('/crash', faults.hang);
    const eventId = await trackEvent('crash@example.com', 'crash.event');
    const held = await hooks.waitForCall((c) => c.path === '/crash' && c.webhookId === eventId, 60_000);
    await hooks.waitForCall((c) => c.path === '/crash-beside' && c.webhookId === eventId && c.delivered);
    // Its 2xx is in the log while the held attempt of the same job is still open: an outcome is
    // written when its attempt ends, not when the job's slowest attempt does.
    await waitFor(async () => ((await delivery(besideHook.id, eventId))?.status === 'succeeded' ? true : undefined), 30_000, 100);
    expect(held.request.outcome.state).toBe('pending');
    const killedAt = Date.now();
    worker.child.kill('SIGKILL');
    await worker.exited;
    await hooks.waitForEnd(held);
    worker = await startWorker();
    if (TEST_MODE !== 'services') api.service = worker;
    const arrived = await hooks.waitForCall((c) => c.path === '/crash' && c.webhookId === eventId && c.delivered, 120_000);
    const settled = await waitFor(async () => {
      const d = await delivery(hook.id, eventId);
      return d?.status === 'succeeded' ? d : undefined;
    }, 30_000, 250);
    const calls = hooks.received('/crash').filter((c) => c.webhookId === eventId);
    const tally = hooks.tally('/crash');
    const beside = hooks.tally('/crash-beside');
    process.stdout.write(
      `event-webhooks crash (${TEST_MODE}): requests ${calls.length} (held one ${held.request.outcome.state}), delivered ${tally.delivered}, duplicates ${tally.duplicates}, ` +
        `arrived ${Math.round((arrived.request.receivedAt.getTime() - killedAt) / 1000)} s after the kill; the endpoint beside it: delivered ${beside.delivered}, duplicates ${beside.duplicates}\n`,
    );
    expect(held.request.outcome.state).toBe('closed-by-client');
    expect(arrived.verified).toBe(true);
    expect(settled.status).toBe('succeeded');
    expect(tally).toMatchObject({ delivered: 1, distinctDelivered: 1, duplicates: 0, unverified: 0 });
    crash = { eventId, beside: hooks.received('/crash-beside').filter((c) => c.webhookId === eventId) };
  });

  it('does not send again a delivery answered 2xx before the kill, beside the attempt that was in flight', async () => {
    // The kill came after its 2xx: only the attempt in flight had to be made again.
    expect(crash).toBeDefined();
    const { beside } = crash!;
    expect({ requests: beside.length, delivered: beside.filter((c) => c.delivered).length }).toEqual({ requests: 1, delivered: 1 });
  });

  it('delivers every event to a receiver that was down for a while, none twice to a 2xx, none lost', async () => {
    const paths = ['/outage-a', '/outage-b'];
    const endpoints: Array<{ id: string; secret: string }> = [];
    for (const path of paths) endpoints.push(await createEndpoint(path, ['outage.*']));
    await hooks.down();
    const downAt = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < OUTAGE_EVENTS; i++) {
      ids.push(await trackEvent(`outage${i % 7}@example.com`, `outage.e${i % 3}`));
      await pause((OUTAGE_MS * 0.6) / OUTAGE_EVENTS, 'events spread over most of the outage, so they meet it at every point of their retry schedule');
    }
    // Every event has met the closed port at least once before the receiver comes back.
    await waitFor(async () => {
      for (const e of endpoints) {
        const list = (await call('get', `/webhooks/${e.id}/deliveries`).query({ limit: 100, status: 'pending' }).expect(200)).body.data as Array<{ eventId: string; attempts: number }>;
        if (!ids.every((id) => list.some((d) => d.eventId === id && d.attempts >= 1))) return undefined;
      }
      return true;
    }, 60_000, 500);
    await pause(OUTAGE_MS - (Date.now() - downAt), 'the receiver stays down for OUTAGE_MS');
    await hooks.up();
    const upAt = Date.now();

    const done = () => paths.every((path) => hooks.tally(path).distinctDelivered >= OUTAGE_EVENTS);
    await waitFor(async () => (done() ? true : undefined), 120_000, 250).catch(() => undefined);
    // The log agrees: nothing pending, every delivery succeeded.
    const settled = await waitFor(async () => {
      const counts = [];
      for (const e of endpoints) {
        const first = (await call('get', `/webhooks/${e.id}/deliveries`).query({ limit: 1, status: 'succeeded' }).expect(200)).body.total as number;
        const pending = (await call('get', `/webhooks/${e.id}/deliveries`).query({ limit: 1, status: 'pending' }).expect(200)).body.total as number;
        counts.push({ succeeded: first, pending });
      }
      return counts.every((c) => c.pending === 0) ? counts : undefined;
    }, 60_000, 500).catch(() => null);

    const per = paths.map((path) => {
      const tally = hooks.tally(path);
      const delivered = new Set(hooks.received(path).filter((c) => c.delivered).map((c) => c.webhookId));
      return { path, ...tally, lost: ids.filter((id) => !delivered.has(id)).length };
    });
    process.stdout.write(
      `event-webhooks outage (${TEST_MODE}): down ${Math.round((upAt - downAt) / 1000)} s, ${OUTAGE_EVENTS} events × ${paths.length} endpoints; ` +
        per.map((p) => `${p.path}: delivered ${p.distinctDelivered}, duplicates ${p.duplicates}, lost ${p.lost}, requests ${p.calls}`).join('; ') +
        `; log ${JSON.stringify(settled)}\n`,
    );
    for (const p of per) expect({ path: p.path, distinctDelivered: p.distinctDelivered, duplicates: p.duplicates, lost: p.lost, unverified: p.unverified }).toEqual({ path: p.path, distinctDelivered: OUTAGE_EVENTS, duplicates: 0, lost: 0, unverified: 0 });
    expect(settled).toEqual(paths.map(() => ({ succeeded: OUTAGE_EVENTS, pending: 0 })));
  });
});
