import { EventsService } from '../../src/modules/events/events.service';
import type { StoredEvent } from '../../src/modules/events/events.types';
import { EventConsumerRegistry } from '../../src/modules/events/outbox/event-consumers';
import { EventOutbox } from '../../src/modules/events/worker/event-outbox';
import { TEST_MODE } from '../support/app';
import { ApiClient, ProjectSession, useSession, waitFor } from '../support/session';

/*
 * White-box: an outbox consumer registered in the app (what consumers are handed, and when) and
 * EventsService.record inside a caller's transaction: no endpoint shows either. Stored contacts
 * and events are read through the API.
 */
describe('events', () => {
  const s = useSession();
  let other: ProjectSession;
  const heard: StoredEvent[] = [];

  beforeAll(async () => {
    other = await s.newProject('Other');
    // A consumer of the event outbox, as modules register theirs.
    s.app.runtime.app.get(EventConsumerRegistry).register({
      name: 'test-heard',
      handle: async (events) => {
        heard.push(...events);
      },
    });
  });

  const track = (body: unknown, client: ApiClient = s.publicApi) => client.post('/v1/track', body);
  const contactOf = async (id: string) => (await s.api.get(`/contacts/${id}`).expect(200)).body;
  const namesOf = async (contactId: string) => (await s.read.eventsOf(contactId)).map((e) => e.name);

  describe('POST /v1/track', () => {
    it('tracks with the public or secret key, creates a subscribed contact, stores each call', async () => {
      const res = await track({ email: ' Ada@Example.com ', event: 'signup', data: { plan: 'pro' } }).expect(200);
      expect(res.body).toEqual({ success: true, data: { contact: expect.stringMatching(/^cnt_[0-9a-f]{32}$/), event: expect.any(String), timestamp: expect.any(String) } });
      expect(new Date(res.body.data.timestamp).toISOString()).toBe(res.body.data.timestamp);
      const again = await track({ email: 'ada@example.com', event: 'signup' }, s.api).expect(200);
      expect(again.body.data.contact).toBe(res.body.data.contact);
      expect(again.body.data.event).not.toBe(res.body.data.event);
      const contact = await contactOf(res.body.data.contact);
      expect(contact).toMatchObject({ email: 'ada@example.com', subscribed: true, data: { plan: 'pro' } });
      expect(await namesOf(contact.id)).toEqual(['signup', 'signup']);
    });

    it('applies the subscription rules: existing keep unless given; a flip stores contact.* events', async () => {
      const created = await s.api.post('/contacts', { email: 'sub@example.com', subscribed: false }).expect(201);
      const id = created.body.id;
      await track({ email: 'sub@example.com', event: 'visit' }).expect(200);
      expect((await contactOf(id)).subscribed).toBe(false);
      await track({ email: 'sub@example.com', event: 'visit', subscribed: true }).expect(200);
      expect((await contactOf(id)).subscribed).toBe(true);
      await track({ email: 'sub@example.com', event: 'visit', subscribed: true }).expect(200);
      await track({ email: 'sub@example.com', event: 'optout', subscribed: false }).expect(200);
      expect((await contactOf(id)).subscribed).toBe(false);
      // A flip and the tracked event that caused it share one statement (and timestamp).
      expect((await namesOf(id)).sort()).toEqual(['contact.subscribed', 'contact.unsubscribed', 'optout', 'visit', 'visit', 'visit']);
      const fresh = await track({ email: 'fresh-unsub@example.com', event: 'x', subscribed: false }).expect(200);
      expect((await contactOf(fresh.body.data.contact)).subscribed).toBe(false);
      expect(await namesOf(fresh.body.data.contact)).toEqual(['x']);
    });

    it('applies the data rules and stores one-off values on the event only', async () => {
      const res = await track({ email: 'data@example.com', event: 'buy', data: { a: 1, b: 'x', id: 'drop', code: { value: 'C1', persistent: false } } }).expect(200);
      await track({ email: 'data@example.com', event: 'buy', data: { a: null, b: '', c: { d: 1 } } }).expect(200);
      const contact = await contactOf(res.body.data.contact);
      expect(contact.data).toEqual({ b: 'x', c: { d: 1 } });
      const events = await s.read.events({ name: 'buy', contactId: contact.id });
      expect(events.map((e) => e.data)).toEqual([{ c: { d: 1 } }, { a: 1, b: 'x', code: 'C1' }]);
    });

    it.each(['email.sent', 'Email.Open', 'email.anything', 'contact.subscribed', 'contact.unsubscribed', 'segment.vip-customers.entry', 'segment.x.exit'])(
      'rejects the reserved name %s with reserved_event and stores nothing',
      async (event) => {
        const res = await track({ email: 'reserved@example.com', event }).expect(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'event', code: 'reserved_event' })]);
        const lookup = await s.api.post('/contacts/lookup', { emails: ['reserved@example.com'] }).expect(200);
        expect(lookup.body.found).toEqual([]);
      },
    );

    it.each([
      ['missing email', { event: 'x' }, 'email'],
      ['missing event', { email: 'a@example.com' }, 'event'],
      ['invalid email', { email: 'nope', event: 'x' }, 'email'],
      ['email with CR/LF', { email: 'a@example.com\r\n', event: 'x' }, 'email'],
      ['event with a newline', { email: 'a@example.com', event: 'a\nb' }, 'event'],
      ['blank event', { email: 'a@example.com', event: '   ' }, 'event'],
      ['too long event', { email: 'a@example.com', event: 'x'.repeat(201) }, 'event'],
      ['event of the wrong type', { email: 'a@example.com', event: 5 }, 'event'],
      ['subscribed of the wrong type', { email: 'a@example.com', event: 'x', subscribed: 'true' }, 'subscribed'],
      ['data as an array', { email: 'a@example.com', event: 'x', data: [] }, 'data'],
      ['data holding \\u0000', { email: 'a@example.com', event: 'x', data: { a: 'nul\u0000' } }, 'data'],
    ])('rejects %s with 422', async (_name, body, field) => {
      const res = await track(body).expect(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
      const lookup = await s.api.post('/contacts/lookup', { emails: ['a@example.com'] }).expect(200);
      expect(lookup.body.found).toEqual([]);
    });

    it('rejects oversized bodies (413), malformed JSON (400) and missing keys (401)', async () => {
      await track({ email: 'big@example.com', event: 'x', data: { blob: 'x'.repeat(1_100_000) } }).expect(413);
      await s.publicApi.post('/v1/track').set('Content-Type', 'application/json').send('{"email":').expect(400);
      await track({ email: 'a@example.com', event: 'x' }, s.anonymous).expect(401);
    });

    it('survives concurrent first tracks of one email: one contact, every event stored', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => track({ email: 'race@example.com', event: 'burst', data: { n: i } })));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      const ids = new Set(results.map((r) => r.body.data.contact));
      expect(ids.size).toBe(1);
      expect(await namesOf([...ids][0])).toEqual(Array(12).fill('burst'));
    });

    it('refuses a repeated Idempotency-Key with 409 and does not track again', async () => {
      const send = () => track({ email: 'idem@example.com', event: 'once' }).set('Idempotency-Key', 'track-key-1');
      const first = await send().expect(200);
      const second = await send().expect(409);
      expect(second.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await namesOf(first.body.data.contact)).toEqual(['once']);
    });

    it('hands every committed event to outbox consumers, including flip events', async () => {
      const res = await track({ email: 'hook@example.com', event: 'hooked', subscribed: true }).expect(200);
      await track({ email: 'hook@example.com', event: 'hooked2', subscribed: false }).expect(200);
      const names = await waitFor(async () => {
        const mine = heard.filter((e) => e.contactId === res.body.data.contact).map((e) => e.name);
        return mine.length >= 3 ? mine : undefined;
      });
      expect(names.sort()).toEqual(['contact.unsubscribed', 'hooked', 'hooked2']);
      expect(heard.find((e) => e.name === 'hooked')).toMatchObject({ id: res.body.data.event, projectId: s.project.id });
    });
  });

  describe('EventsService.record inside a caller transaction', () => {
    it('hands consumers an event only after commit, and never after a rollback', async () => {
      const events = s.app.runtime.app.get(EventsService);
      const dataSource = s.db.dataSource;
      let inside: StoredEvent | undefined;
      await dataSource.transaction(async (em) => {
        inside = await events.record(s.project.id, { contactId: null, name: 'tx.committed', data: { a: 1 } }, em);
        // No consumer hears it before the commit: a drain of the outbox, run now, hands it to none.
        // Embedded, PGlite runs one transaction at a time: no drain can read until this one ends.
        if (TEST_MODE === 'services') await (s.app.runtime.app.get(EventOutbox) as unknown as { rounds: { runNow(): Promise<void> } }).rounds.runNow();
        expect(heard.find((e) => e.id === inside!.id)).toBeUndefined();
      });
      await waitFor(async () => (heard.find((e) => e.id === inside!.id) ? true : undefined));
      let rolledBack: StoredEvent | undefined;
      await expect(
        dataSource.transaction(async (em) => {
          rolledBack = await events.record(s.project.id, { contactId: null, name: 'tx.rolled-back' }, em);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      // A rolled-back event is never heard: an event committed after it is, and it is not.
      const after = await events.record(s.project.id, { contactId: null, name: 'tx.after' });
      await waitFor(async () => (heard.find((e) => e.id === after.id) ? true : undefined));
      expect(heard.find((e) => e.id === rolledBack!.id)).toBeUndefined();
      expect((await s.api.get('/events?name=tx.rolled-back').expect(200)).body.total).toBe(0);
      expect((await s.api.get('/events?name=tx.committed').expect(200)).body.total).toBe(1);
    });
  });

  describe('POST /events/track', () => {
    it('is the dashboard alias (secret key; public key refused)', async () => {
      const res = await s.api.post('/events/track', { email: 'alias@example.com', event: 'dash' }).expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.contact).toMatch(/^cnt_/);
      await s.publicApi.post('/events/track', { email: 'alias@example.com', event: 'dash' }).expect(401);
      await s.api.post('/events/track', { email: 'alias@example.com', event: 'email.sent' }).expect(422);
    });
  });

  describe('event queries', () => {
    let q: ProjectSession;
    let contactId: string;
    beforeAll(async () => {
      q = await s.newProject('Queries');
      for (let i = 0; i < 5; i++) await track({ email: 'q1@example.com', event: 'page' }, q.publicApi).expect(200);
      const r = await track({ email: 'q2@example.com', event: 'signup' }, q.publicApi).expect(200);
      contactId = r.body.data.contact;
      await track({ email: 'q2@example.com', event: 'foreign' }, other.publicApi).expect(200);
    });

    it('lists newest first with cursor pages and filters', async () => {
      const first = await q.api.get('/events?limit=4').expect(200);
      expect(first.body).toMatchObject({ hasMore: true, total: 6 });
      expect(first.body.data[0]).toEqual({ id: expect.any(String), name: 'signup', contactId, contact: { id: contactId, email: 'q2@example.com' }, data: {}, createdAt: expect.any(String) });
      const second = await q.api.get(`/events?limit=4&cursor=${first.body.cursor}`).expect(200);
      expect(second.body).toMatchObject({ hasMore: false, total: 0 });
      expect(second.body.data).toHaveLength(2);
      expect((await q.api.get('/events?name=page').expect(200)).body.total).toBe(5);
      expect((await q.api.get(`/events?contactId=${contactId}`).expect(200)).body.total).toBe(1);
      expect((await q.api.get('/events?contactId=bogus').expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
      await q.api.get('/events?cursor=%%%').expect(400);
      await q.api.get('/events?limit=x').expect(422);
    });

    it('lists a contact\'s events; foreign and malformed contact ids are 404', async () => {
      const res = await q.api.get(`/events/contact/${contactId}`).expect(200);
      expect(res.body.data.map((e: { name: string }) => e.name)).toEqual(['signup']);
      await other.api.get(`/events/contact/${contactId}`).expect(404);
      await q.api.get('/events/contact/not-an-id').expect(404);
    });

    it('reports names and stats', async () => {
      const names = await q.api.get('/events/names').expect(200);
      expect(names.body.names).toEqual([
        { name: 'page', count: 5, lastSeenAt: expect.any(String) },
        { name: 'signup', count: 1, lastSeenAt: expect.any(String) },
      ]);
      const stats = await q.api.get('/events/stats').expect(200);
      expect(stats.body).toMatchObject({ total: 6, last24h: 6, last7d: 6, last30d: 6, uniqueNames: 2 });
      expect(stats.body.events[0]).toMatchObject({ name: 'page', total: 5, last24h: 5 });
    });

    it('reports usage from a real query', async () => {
      const res = await q.api.get('/events/page/usage').expect(200);
      expect(res.body).toEqual({ event: 'page', segments: [], campaigns: [], workflows: [], total: 0 });
    });

    it('deletes every event of a name (204), 404 when none, 422 for system names, other projects untouched', async () => {
      await other.api.del('/events/page').expect(404);
      await q.api.del('/events/page').expect(204);
      expect((await q.api.get('/events').expect(200)).body.total).toBe(1);
      await q.api.del('/events/page').expect(404);
      const sys = await q.api.del('/events/contact.unsubscribed').expect(422);
      expect(sys.body.error.errors[0].code).toBe('reserved_event');
      expect((await other.api.get('/events?name=foreign').expect(200)).body.total).toBe(1);
    });
  });
});
