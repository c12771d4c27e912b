import { ContactsService } from '../../src/modules/contacts/contacts.service';
import type { StoredEvent } from '../../src/modules/events/events.types';
import { EventConsumerRegistry } from '../../src/modules/events/outbox/event-consumers';
import { slowStatements } from '../support/app';
import { ProjectSession, useSession, waitFor } from '../support/session';

/**
 * Concurrent `/v1/track` (and `POST /contacts`) calls share one statement (ContactsService's
 * upsert batcher); every call must still behave as if it ran alone, in some serial order.
 *
 * White-box: the batcher's statistics, a slowed StatementRunner and an outbox consumer
 * (internals), and a contact's events in commit order with their exact (microsecond) timestamps,
 * which the API's newest-first, millisecond list cannot show. Contacts are read through the API.
 */
describe('track batching', () => {
  const s = useSession({ RATE_LIMIT_PER_MINUTE: '1000000' }, { projectName: 'A' });
  let projects: ProjectSession[];
  const heard: StoredEvent[] = [];

  beforeAll(async () => {
    projects = [s, await s.newProject('B'), await s.newProject('C')];
    // A consumer of the event outbox, as modules register theirs.
    s.app.runtime.app.get(EventConsumerRegistry).register({
      name: 'test-heard',
      handle: async (events) => {
        heard.push(...events);
      },
    });
    slowStatements(s.app);
  });

  const track = (p: ProjectSession, body: Record<string, unknown>) => p.publicApi.post('/v1/track', body);
  const stats = () => (s.app.runtime.app.get(ContactsService) as unknown as { batcher: { stats: { batches: number; batchedItems: number; fallbacks: number } } }).batcher.stats;
  /** The contact's events in commit order (a flip before the tracked event of its statement). */
  // Read in SQL: commit order needs created_at to the microsecond (events of one statement share it); the API shows milliseconds.
  const eventsOf = (contactId: string): Promise<Array<{ id: string; name: string; data: Record<string, unknown>; at: string }>> =>
    s.db.query(
      `SELECT id, name, data, created_at::text AS at FROM events WHERE contact_id = $1
       ORDER BY created_at, CASE WHEN name LIKE 'contact.%' THEN 0 ELSE 1 END`,
      [contactId],
    );
  const contactOf = async (p: ProjectSession, id: string) => (await p.api.get(`/contacts/${id}`).expect(200)).body;
  /** The contact with exactly this email, through the list's search (lookup answers only whether it exists). */
  const contactByEmail = async (p: ProjectSession, email: string) => {
    const contact = await p.read.contactByEmail(email);
    if (!contact) throw new Error(`no contact ${email}`);
    return contact;
  };

  it('serializes concurrent calls for one email: data, subscription and flip events match one serial order', async () => {
    const [p] = projects;
    const n = 40;
    // Call i: sets k<i>, removes k<i-1>, flips between false / true / keeps (undefined).
    const subscribedOf = (i: number): boolean | undefined => (i % 3 === 0 ? undefined : i % 3 === 1 ? false : true);
    const patchOf = (i: number): Record<string, unknown> => ({ [`k${i}`]: i, ...(i > 0 ? { [`k${i - 1}`]: null } : {}), last: i, parity: i % 2 ? 'odd' : 'even' });
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => track(p, { email: i % 2 ? 'Same@Example.com' : ' same@example.com', event: 'burst', subscribed: subscribedOf(i), data: patchOf(i) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(n).fill(200));
    const ids = new Set(results.map((r) => r.body.data.contact));
    expect(ids.size).toBe(1);
    const contactId = [...ids][0];

    const events = await eventsOf(contactId);
    const tracked = events.filter((e) => e.name === 'burst');
    expect(tracked).toHaveLength(n);
    expect(new Set(tracked.map((e) => e.data.last)).size).toBe(n);
    expect(new Set(tracked.map((e) => e.at)).size).toBe(n); // one statement each: the same contact never shares a batch
    // Replay the calls in the order they were stored; the stored flips and the final state must match.
    let subscribed: boolean | undefined;
    let data: Record<string, unknown> = {};
    const expectedEvents: Array<{ name: string; at: string }> = [];
    for (const event of tracked) {
      const i = event.data.last as number;
      const sent = subscribedOf(i);
      if (subscribed === undefined) subscribed = sent ?? true;
      else if (sent !== undefined && sent !== subscribed) {
        subscribed = sent;
        expectedEvents.push({ name: sent ? 'contact.subscribed' : 'contact.unsubscribed', at: event.at });
      }
      expectedEvents.push({ name: 'burst', at: event.at });
      data = { ...data };
      for (const [key, value] of Object.entries(patchOf(i))) {
        if (value === null) delete data[key];
        else data[key] = value;
      }
    }
    expect(events.map((e) => ({ name: e.name, at: e.at }))).toEqual(expectedEvents);
    const flips = events.filter((e) => e.name !== 'burst');
    expect(flips.every((e) => JSON.stringify(e.data) === JSON.stringify({ source: 'track' }))).toBe(true);
    const contact = await contactOf(p, contactId);
    expect(contact.subscribed).toBe(subscribed);
    expect(contact.data).toEqual(data);
    // Consumers got every event once, flips before the tracked event of the same call.
    const heardIds = await waitFor(async () => {
      const mine = heard.filter((e) => e.contactId === contactId);
      return mine.length >= events.length ? mine.map((e) => e.id) : undefined;
    });
    expect(heardIds).toHaveLength(events.length);
    expect(new Set(heardIds)).toEqual(new Set(events.map((e) => e.id)));
    expect(heardIds).toEqual(events.map((e) => e.id));
  });

  it('batches calls of several projects: each gets its own contacts, events and first-seen field types', async () => {
    const before = { ...stats() };
    const emails = Array.from({ length: 15 }, (_, i) => `user${i}@example.com`);
    const calls: Array<{ p: ProjectSession; email: string; round: number }> = [];
    for (let round = 0; round < 3; round++) for (const email of emails) for (const p of projects) calls.push({ p, email, round });
    // Field `score` is a number in project A, a string in B, a boolean in C — all first seen in this burst.
    const scoreOf = (p: ProjectSession, round: number) => (p === projects[0] ? round : p === projects[1] ? `s${round}` : round % 2 === 0);
    const results = await Promise.all(
      calls.map(({ p, email, round }) =>
        track(p, { email, event: `round${round}`, subscribed: round === 1 ? false : undefined, data: { score: scoreOf(p, round), [`r${round}`]: true } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));
    const after = stats();
    expect(after.batches).toBeGreaterThan(before.batches);
    expect(after.batchedItems - before.batchedItems).toBeGreaterThan(after.batches - before.batches);

    for (const p of projects) {
      const lookup = await p.api.post('/contacts/lookup', { emails }).expect(200);
      expect(lookup.body.notFound).toEqual([]);
      expect(lookup.body.found).toEqual(emails);
      for (const email of emails) {
        const contact = await contactByEmail(p, email);
        expect(contact.data).toMatchObject({ r0: true, r1: true, r2: true });
        const events = await eventsOf(contact.id);
        expect(events.filter((e) => e.name.startsWith('round')).map((e) => e.name).sort()).toEqual(['round0', 'round1', 'round2']);
        // Created subscribed unless round1 (subscribed:false) came first; exactly one unsubscribe flip otherwise.
        const flips = events.filter((e) => e.name.startsWith('contact.'));
        expect(contact.subscribed).toBe(false);
        expect(flips.map((e) => e.name)).toEqual(events[0].name === 'round1' ? [] : ['contact.unsubscribed']);
      }
      const fields = (await p.api.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; type: string }>;
      const type = fields.find((f) => f.field === 'data.score')?.type;
      expect(type).toBe(p === projects[0] ? 'number' : p === projects[1] ? 'string' : 'boolean');
    }
    const ids = new Set(results.map((r) => r.body.data.contact));
    expect(ids.size).toBe(emails.length * projects.length);
  });

  it('refuses an unstorable item (422) without failing the calls batched with it', async () => {
    const [p] = projects;
    // Whether the bad item shares a statement depends on timing: retried until it does (a loaded machine batches less).
    for (let attempt = 0; attempt < 12; attempt++) {
      const emails = Array.from({ length: 24 }, (_, i) => `nul${attempt}-${i}@example.com`);
      const bad = 11;
      const results = await Promise.all(
        emails.map((email, i) => track(p, { email, event: 'mixed', data: i === bad ? { a: 'nul\u0000' } : { a: `ok${i}` } })),
      );
      expect(results.map((r) => r.status)).toEqual(emails.map((_, i) => (i === bad ? 422 : 200)));
      expect(results[bad].body.error.errors.map((e: { field: string }) => e.field)).toContain('data');
      const lookup = await p.api.post('/contacts/lookup', { emails }).expect(200);
      expect(lookup.body.notFound).toEqual([emails[bad]]);
      expect(lookup.body.found).toEqual(emails.filter((_, i) => i !== bad));
      for (const email of lookup.body.found as string[]) expect((await contactByEmail(p, email)).data).toEqual({ a: `ok${emails.indexOf(email)}` });
      const mixed = (await p.read.events({ name: 'mixed' })).filter((e) => String(e.data.a).startsWith('ok') && e.contact?.email.startsWith(`nul${attempt}-`));
      expect(mixed).toHaveLength(emails.length - 1);
      if (stats().fallbacks > 0) return;
    }
    throw new Error('the unstorable item never shared a batch (no fallback ran)');
  });

  it('keeps POST /contacts semantics under concurrency: one 201 per new email, 200 afterwards', async () => {
    const [, p] = projects;
    const same = await Promise.all(Array.from({ length: 10 }, (_, i) => p.api.post('/contacts', { email: 'dup@example.com', data: { [`d${i}`]: i } })));
    expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(same.filter((r) => r.body._meta.isNew)).toHaveLength(1);
    const last = await p.api.post('/contacts', { email: 'dup@example.com' }).expect(200);
    expect(Object.keys(last.body.data).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `d${i}`).sort());
    const distinct = await Promise.all(Array.from({ length: 20 }, (_, i) => p.api.post('/contacts', { email: `new${i}@example.com`, subscribed: i % 2 === 0 })));
    expect(distinct.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(distinct.map((r) => r.body.subscribed)).toEqual(Array.from({ length: 20 }, (_, i) => i % 2 === 0));
    // Re-sending the same values changes nothing: updatedAt stays.
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => p.api.post('/contacts', { email: `new${i}@example.com`, subscribed: i % 2 === 0 })));
    expect(again.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(again.map((r) => r.body.updatedAt)).toEqual(distinct.map((r) => r.body.updatedAt));
  });
});
