import request from 'supertest';
import { EventConsumerRegistry } from '../../src/modules/events/outbox/event-consumers';
import type { StoredEvent } from '../../src/modules/events/events.types';
import { createProject, createServicesDatabase, TEST_MODE } from '../support/app';
import { openSession, waitFor } from '../support/session';
import { withApiAndWorker } from '../support/service-process';

/** `mailroom_events_total{name="…"}` in a /metrics scrape (0 when absent). */
function eventsCounted(scrape: string, name: string): number {
  const match = new RegExp(`^mailroom_events_total\\{name="${name.replace(/\./g, '\\.')}"\\} (\\d+)$`, 'm').exec(scrape);
  return match ? Number(match[1]) : 0;
}

/**
 * The durable event outbox: every committed event row reaches the consumers in worker
 * processes. Its first consumer counts events by name in `/metrics` of the process that read them.
 */
describe('event outbox', () => {
  it('hands tracked and emitted events to the consumers of a ROLE=all process', async () => {
    const s = await openSession();
    try {
      const before = await s.anonymous.get('/metrics').expect(200);
      for (const subscribed of [true, false]) {
        await s.publicApi.post('/v1/track', { email: 'one@example.com', event: 'signup', subscribed }).expect(200);
      }
      await waitFor(async () => {
        const scrape = (await s.anonymous.get('/metrics').expect(200)).text;
        return eventsCounted(scrape, 'custom') === eventsCounted(before.text, 'custom') + 2 &&
          eventsCounted(scrape, 'contact.unsubscribed') === eventsCounted(before.text, 'contact.unsubscribed') + 1
          ? true
          : undefined;
      });
    } finally {
      await s.close();
    }
  }, 120_000);

  // White-box: consumers are registered in the running app (no endpoint adds one), to see what each is handed.
  it('hands every consumer its events in order, and one that keeps failing holds no other back', async () => {
    const s = await openSession();
    try {
      const registry = s.app.runtime.app.get(EventConsumerRegistry);
      const steady: StoredEvent[] = [];
      const flaky: StoredEvent[] = [];
      let failing = true;
      let failures = 0;
      const ours = (events: StoredEvent[]) => events.filter((e) => e.projectId === s.project.id && e.name.startsWith('outbox_'));
      registry.register({ name: 'test-flaky', handle: async (events) => {
        if (failing && ours(events).length > 0) {
          failures++;
          throw new Error('a consumer that keeps failing');
        }
        flaky.push(...ours(events));
      } });
      registry.register({ name: 'test-steady', handle: async (events) => void steady.push(...ours(events)) });
      const names = ['outbox_1', 'outbox_2', 'outbox_3'];
      for (const event of names) await s.publicApi.post('/v1/track', { email: 'order@example.com', event }).expect(200);

      // The steady consumer gets all three, once each and in order, while the other keeps failing.
      await waitFor(async () => (steady.length >= 3 && failures >= 2 ? true : undefined), 30_000);
      expect(steady.map((e) => e.name)).toEqual(names);
      expect(flaky).toEqual([]);
      // Once it stops failing, the failed consumer is handed the same events again, in order.
      failing = false;
      await waitFor(async () => (flaky.length >= 3 ? true : undefined), 30_000);
      expect(flaky.map((e) => e.id)).toEqual(steady.map((e) => e.id));
      expect(steady).toHaveLength(3);
    } finally {
      await s.close();
    }
  }, 120_000);

  if (TEST_MODE === 'embedded') return; // two processes need a shared PostgreSQL server

  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createServicesDatabase();
  });
  afterAll(() => database?.drop());

  // Not on the session fixture: the API and the worker are spawned service processes (their URLs, not an in-process app).
  it('delivers an event tracked on a ROLE=api process to a ROLE=worker process', async () => {
    await withApiAndWorker(database.url, async ({ api: apiBase, worker: workerBase }) => {
      const project = await createProject(apiBase);
      // The second call flips the contact: a tracked event plus an emitted contact.unsubscribed.
      for (const subscribed of [true, false]) {
        await request(apiBase).post('/v1/track').set('Authorization', `Bearer ${project.publicKey}`).send({ email: 'far@example.com', event: 'signup', subscribed }).expect(200);
      }

      const scrape = await waitFor(async () => {
        const text = (await request(workerBase).get('/metrics').expect(200)).text;
        return eventsCounted(text, 'custom') >= 2 && eventsCounted(text, 'contact.unsubscribed') >= 1 ? text : undefined;
      }, 30_000);
      expect(eventsCounted(scrape, 'custom')).toBe(2);
      expect(eventsCounted(scrape, 'contact.unsubscribed')).toBe(1);
      // The API process recorded the events but consumes none.
      const apiScrape = (await request(apiBase).get('/metrics').expect(200)).text;
      expect(eventsCounted(apiScrape, 'custom')).toBe(0);
    });
  }, 300_000);
});
