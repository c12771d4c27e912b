import request from 'supertest';
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
