import { randomBytes } from 'node:crypto';
import { ApiClient, ProjectSession, Session, useFixture, useSession, waitFor } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';
import { faults, WebhookCall, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Event webhooks (docs/integrations.md) against a loopback receiver that verifies every request with
 * the `standardwebhooks` package: the routes, validation and tenancy, which events reach which
 * endpoint and in what shape, the delivery log, retry, replay, rotation, and what a misbehaving
 * receiver (hang, redirect, 50 MB body, reset, 5xx, 410) leaves in the log. The retry schedule
 * and the auto-disable window are shortened by configuration so retries happen within the test.
 */

// The retry schedule at test scale (production: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
const FAST = { WEBHOOK_RETRY_SCHEDULE_MS: '1000,1000,1000,1000,1000,1000,1000' };
const ATTEMPTS = 8;

interface WebhookView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

interface AttemptView {
  attempt: number;
  attemptedAt: string;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

/** `GET …/deliveries/:id`: the list item with every attempt (`attempts`, their number `attemptCount`) and the body sent. */
type DeliveryDetail = Omit<DeliveryView, 'attempts'> & { attempts: AttemptView[]; attemptCount: number; body: string };

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const WEBHOOK_KEYS = ['createdAt', 'description', 'disabledReason', 'enabled', 'events', 'id', 'updatedAt', 'url'];
const DELIVERY_KEYS = ['attempts', 'durationMs', 'error', 'eventId', 'id', 'lastAttemptAt', 'nextAttemptAt', 'responseStatus', 'status', 'type'];

/** A project's webhook routes, each asserting its status. */
function webhooksOf(api: ApiClient) {
  const deliveries = async (id: string, query: Record<string, unknown> = {}) => (await api.get(`/webhooks/${id}/deliveries`, query).expect(200)).body as { data: DeliveryView[]; cursor: string | null; hasMore: boolean; total: number };
  const allDeliveries = async (id: string, query: Record<string, unknown> = {}): Promise<DeliveryView[]> => {
    const out: DeliveryView[] = [];
    let cursor: string | null = null;
    do {
      const page = await deliveries(id, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...page.data);
      cursor = page.hasMore ? page.cursor : null;
    } while (cursor);
    return out;
  };
  const delivery = async (id: string, deliveryId: string) => (await api.get(`/webhooks/${id}/deliveries/${deliveryId}`).expect(200)).body as DeliveryDetail;
  return {
    create: async (body: Record<string, unknown>) => (await api.post('/webhooks', body).expect(201)).body as WebhookView & { secret: string },
    get: async (id: string) => (await api.get(`/webhooks/${id}`).expect(200)).body as WebhookView,
    list: async () => (await api.get('/webhooks').expect(200)).body as WebhookView[],
    deliveries,
    allDeliveries,
    delivery,
    /** Waits until the endpoint has a delivery of `eventId` that satisfies `until` (default: any), and returns it with its attempts. */
    deliveryOf: (id: string, eventId: string, until: (d: DeliveryDetail) => boolean = () => true, timeoutMs = 30_000) =>
      waitFor(async () => {
        const found = (await allDeliveries(id)).find((d) => d.eventId === eventId);
        if (!found) return undefined;
        const detail = await delivery(id, found.id);
        return until(detail) ? detail : undefined;
      }, timeoutMs, 200),
  };
}

/** Tracks `event` for `email` with the project's secret key; answers the event id (the `webhook-id` its deliveries carry). */
async function track(p: ProjectSession, email: string, event: string, data: Record<string, unknown> = {}): Promise<string> {
  return (await p.api.post('/v1/track', { email, event, data }).expect(200)).body.data.event as string;
}

function expectValidation(res: { status: number; body: any }, fields: RegExp[]) {
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const items = res.body.error.errors as Array<{ field: string }>;
  expect(items).toHaveLength(fields.length);
  for (const field of fields) expect(items.map((i) => i.field)).toEqual(expect.arrayContaining([expect.stringMatching(field)]));
}

const newPath = (name: string) => `/${name}-${randomBytes(3).toString('hex')}`;

describe('event webhooks (WEBHOOK_ALLOW_PRIVATE=true)', () => {
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s: Session = useSession(() => ({ WEBHOOK_ALLOW_PRIVATE: 'true', EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off', ...FAST }));

  /** An endpoint on a fresh receiver path whose calls are verified with its secret. */
  async function endpoint(p: ProjectSession, name: string, events: string[], extra: Record<string, unknown> = {}) {
    const path = newPath(name);
    const created = await webhooksOf(p.api).create({ url: hooks.url(path), events, ...extra });
    hooks.secret(path, created.secret);
    return { ...created, path };
  }

  describe('routes', () => {
    it('creates an endpoint showing its secret once; list and get never show it; patch and delete', async () => {
      const p = await s.newProject('routes');
      const w = webhooksOf(p.api);
      const url = hooks.url('/routes');
      const res = await p.api.post('/webhooks', { url, events: ['email.*', 'purchase'], description: 'Orders' }).expect(201);
      const created = res.body as WebhookView & { secret: string };
      expect(Object.keys(created)).toEqual(expect.arrayContaining([...WEBHOOK_KEYS, 'secret']));
      expect(created).toMatchObject({ url, description: 'Orders', events: ['email.*', 'purchase'], enabled: true, disabledReason: null });
      expect(created.secret).toMatch(SECRET);
      expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

      const listed = await w.list();
      expect(listed).toEqual([expect.objectContaining({ id: created.id, url })]);
      const got = await w.get(created.id);
      for (const shownLater of [listed[0], got]) {
        expect(Object.keys(shownLater)).toEqual(expect.arrayContaining(WEBHOOK_KEYS));
        expect(shownLater).not.toHaveProperty('secret');
        expect(JSON.stringify(shownLater)).not.toContain('whsec_');
      }
      const { secret: _secret, ...shown } = created;
      expect(got).toEqual(shown);
      // The public key is refused; no key at all too.
      expect((await p.publicApi.get('/webhooks')).status).toBe(401);
      expect((await p.publicApi.post('/webhooks', { url, events: ['*'] })).status).toBe(401);
      expect((await s.anonymous.get('/webhooks')).status).toBe(401);
      // The dashboard reads the same list with its session and X-Project-Id.
      expect((await p.dashboard.get('/webhooks').set('X-Project-Id', p.project.id).expect(200)).body).toEqual(listed);
      // Disabled at creation.
      const off = await w.create({ url: hooks.url('/off'), events: ['*'], enabled: false });
      expect(off).toMatchObject({ enabled: false, description: null, disabledReason: null });

      const patched = (await p.api.patch(`/webhooks/${created.id}`, { url: hooks.url('/routes2'), events: ['*'], description: 'All', enabled: false }).expect(200)).body;
      expect(patched).toMatchObject({ id: created.id, url: hooks.url('/routes2'), events: ['*'], description: 'All', enabled: false });
      expect(patched.secret).toBeUndefined();
      expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expect(await w.get(created.id)).toEqual(patched);
      // A partial patch keeps the rest.
      expect((await p.api.patch(`/webhooks/${created.id}`, { description: null }).expect(200)).body).toMatchObject({ url: hooks.url('/routes2'), events: ['*'], description: null, enabled: false });

      const deleted = await p.api.delete(`/webhooks/${created.id}`).expect(204);
      expect(deleted.text).toBe('');
      await p.api.get(`/webhooks/${created.id}`).expect(404);
      await p.api.delete(`/webhooks/${created.id}`).expect(404);
      expect((await w.list()).map((x) => x.id)).toEqual([off.id]);
    });

    it('answers 422 with one item per bad field: url scheme and length, empty or malformed events, and the 21st endpoint', async () => {
      const p = await s.newProject('validation');
      const post = (body: Record<string, unknown>) => p.api.post('/webhooks', body);
      const ok = { url: 'https://example.com/hook', events: ['*'] };
      const longUrl = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length + 1)}`;
      expect(longUrl).toHaveLength(2049);
      expectValidation(await post({ ...ok, url: 'ftp://example.com/hook' }), [/^url$/]);
      expectValidation(await post({ ...ok, url: 'javascript:alert(1)' }), [/^url$/]);
      expectValidation(await post({ ...ok, url: 'not a url' }), [/^url$/]);
      expectValidation(await post({ ...ok, url: longUrl }), [/^url$/]);
      expectValidation(await post({ events: ['*'] }), [/^url$/]);
      expectValidation(await post({ ...ok, events: [] }), [/^events/]);
      expectValidation(await post({ url: ok.url }), [/^events/]);
      for (const pattern of ['*.sent', 'email*', 'email.', 'email.**', '', 'em ail.*', '**']) {
        const res = await post({ ...ok, events: ['purchase', pattern] });
        expect({ pattern, status: res.status }).toEqual({ pattern, status: 422 });
        expectValidation(res, [/^events/]);
      }
      expectValidation(await post({ ...ok, events: 'email.*' }), [/^events/]);
      expectValidation(await post({ ...ok, description: 'x'.repeat(10_000) }), [/^description$/]);
      expectValidation(await post({ ...ok, enabled: 'yes' }), [/^enabled$/]);
      // Two bad fields: two items.
      expectValidation(await post({ url: 'ftp://example.com', events: [] }), [/^url$/, /^events/]);
      // A URL of exactly 2,048 characters is fine.
      await post({ ...ok, url: longUrl.slice(0, 2048) }).expect(201);
      // PATCH validates the same way.
      const id = (await post(ok).expect(201)).body.id;
      expectValidation(await p.api.patch(`/webhooks/${id}`, { url: 'ftp://example.com/hook' }), [/^url$/]);
      expectValidation(await p.api.patch(`/webhooks/${id}`, { events: [] }), [/^events/]);
      expectValidation(await p.api.patch(`/webhooks/${id}`, { events: ['*.x'] }), [/^events/]);

      // At most 20 endpoints a project: 2 exist, 18 more fit, the 21st is 422.
      for (let i = 0; i < 18; i++) await post({ ...ok, url: `https://example.com/hook/${i}` }).expect(201);
      expect(await webhooksOf(p.api).list()).toHaveLength(20);
      const tooMany = await post({ ...ok, url: 'https://example.com/hook/21' });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.error.code).toBe('VALIDATION_ERROR');
      expect(tooMany.body.error.errors).toHaveLength(1);
      expect(await webhooksOf(p.api).list()).toHaveLength(20);
      // Another project is not counted against it; a deletion frees a slot.
      await (await s.newProject('validation other')).api.post('/webhooks', ok).expect(201);
      await p.api.delete(`/webhooks/${id}`).expect(204);
      await post({ ...ok, url: 'https://example.com/hook/21' }).expect(201);
    });

    it('lets a dashboard MEMBER read endpoints but not change them (ADMIN and OWNER do); GET /config says webhooks are served', async () => {
      const p = await s.newProject('roles');
      const hook = await endpoint(p, 'roles', ['*']);
      const member = await s.newUser();
      await p.dashboard.post(`/projects/${p.project.id}/members`, { email: member.email, role: 'MEMBER' }).expect(201);
      const asMember = (method: 'get' | 'post' | 'patch' | 'delete', url: string, body?: object) =>
        (method === 'get' ? member.dashboard.get(url) : member.dashboard[method](url, body)).set('X-Project-Id', p.project.id);
      expect((await asMember('get', '/webhooks').expect(200)).body.map((h: WebhookView) => h.id)).toEqual([hook.id]);
      await asMember('get', `/webhooks/${hook.id}/deliveries`).expect(200);
      const refused = [
        await asMember('post', '/webhooks', { url: hooks.url('/member'), events: ['*'] }),
        await asMember('patch', `/webhooks/${hook.id}`, { enabled: false }),
        await asMember('post', `/webhooks/${hook.id}/rotate-secret`),
        await asMember('post', `/webhooks/${hook.id}/test`),
        await asMember('delete', `/webhooks/${hook.id}`),
      ];
      expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
      expect(await webhooksOf(p.api).get(hook.id)).toMatchObject({ enabled: true });
      // The owner's session with X-Project-Id may.
      await p.dashboard.patch(`/webhooks/${hook.id}`, { description: 'by the owner' }).set('X-Project-Id', p.project.id).expect(200);
      expect((await s.anonymous.get('/config').expect(200)).body.webhooks).toBe(true);
    });

    // White-box: how the secret is stored (no endpoint shows it again).
    it('stores secrets encrypted, the previous one too after a rotation', async () => {
      const p = await s.newProject('at rest');
      const hook = await endpoint(p, 'at-rest', ['*']);
      const rotated = (await p.api.post(`/webhooks/${hook.id}/rotate-secret`).expect(200)).body.secret as string;
      // Read in SQL: how the secret is stored at rest (no endpoint shows it again).
      const [row] = await s.db.query<Record<string, unknown>>('SELECT * FROM webhook_endpoints WHERE id = $1', [hook.id]);
      const stored = JSON.stringify(row);
      for (const secret of [hook.secret, rotated]) {
        expect(stored).not.toContain(secret.slice('whsec_'.length));
        expect(stored).not.toContain(Buffer.from(secret.slice('whsec_'.length), 'base64').toString('hex'));
      }
      expect(row.secret).toEqual(expect.any(String));
      expect(row.previous_secret).toEqual(expect.any(String));
    });

    it('holds the 20-endpoint limit under concurrent creates', async () => {
      const p = await s.newProject('limit race');
      for (let i = 0; i < 18; i++) await p.api.post('/webhooks', { url: `https://example.com/${i}`, events: ['*'] }).expect(201);
      const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => p.api.post('/webhooks', { url: `https://example.com/race/${i}`, events: ['*'] })));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 422, 422, 422, 422, 422, 422]);
      expect(await webhooksOf(p.api).list()).toHaveLength(20);
    });

    it("answers 404 for another project's webhook and delivery ids, and for a malformed id", async () => {
      const mine = await s.newProject('mine');
      const theirs = await s.newProject('theirs');
      const own = await endpoint(mine, 'own', ['*']);
      const foreign = await endpoint(theirs, 'foreign', ['*']);
      const eventId = await track(theirs, 'them@example.com', 'tenancy');
      const foreignDelivery = await webhooksOf(theirs.api).deliveryOf(foreign.id, eventId);
      const ownEvent = await track(mine, 'me@example.com', 'tenancy');
      const ownDelivery = await webhooksOf(mine.api).deliveryOf(own.id, ownEvent);

      for (const id of [foreign.id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
        const answers = [
          await mine.api.get(`/webhooks/${id}`),
          await mine.api.patch(`/webhooks/${id}`, { description: 'x' }),
          await mine.api.delete(`/webhooks/${id}`),
          await mine.api.post(`/webhooks/${id}/rotate-secret`),
          await mine.api.post(`/webhooks/${id}/test`),
          await mine.api.get(`/webhooks/${id}/deliveries`),
          await mine.api.get(`/webhooks/${id}/deliveries/${foreignDelivery.id}`),
          await mine.api.post(`/webhooks/${id}/deliveries/${foreignDelivery.id}/retry`),
          await mine.api.post(`/webhooks/${id}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() }),
        ];
        expect({ id, statuses: answers.map((r) => r.status) }).toEqual({ id, statuses: Array(answers.length).fill(404) });
        for (const res of answers) expect(res.body.error.code).toBe('NOT_FOUND');
      }
      // Their delivery through my endpoint, and a malformed delivery id.
      for (const deliveryId of [foreignDelivery.id, 'not-an-id']) {
        await mine.api.get(`/webhooks/${own.id}/deliveries/${deliveryId}`).expect(404);
        await mine.api.post(`/webhooks/${own.id}/deliveries/${deliveryId}/retry`).expect(404);
      }
      // My delivery under my other endpoint is not found either.
      const other = await endpoint(mine, 'own2', ['nothing']);
      await mine.api.get(`/webhooks/${other.id}/deliveries/${ownDelivery.id}`).expect(404);
      // Theirs is untouched.
      expect(await webhooksOf(theirs.api).get(foreign.id)).toMatchObject({ enabled: true, description: null });
    });
  });

  describe('what reaches an endpoint', () => {
    it('delivers events by pattern (*, email.*, an exact tracked name), signed per Standard Webhooks, with the body {id, type, timestamp, data}', async () => {
      const p = await s.newProject('patterns');
      const all = await endpoint(p, 'all', ['*']);
      const email = await endpoint(p, 'email', ['email.*', 'sentinel']);
      const purchase = await endpoint(p, 'purchase', ['purchase', 'sentinel']);
      const nothing = await endpoint(p, 'nothing', ['signup.done', 'sentinel']);

      const purchaseId = await track(p, 'Buyer@Example.com', 'purchase', { amount: 42, currency: 'EUR', items: [{ sku: 'a' }] });
      const otherId = await track(p, 'buyer@example.com', 'page.view', { path: '/pricing' });
      const sent = (await p.api.post('/v1/send', { to: 'reader@example.org', from: 'hello@acme.test', subject: 'Hello hooks', body: '<p>Hi</p>' }).expect(200)).body.data;
      const emailId = sent.emails[0].email as string;
      await smtp.waitFor('reader@example.org');

      const atAll = await hooks.waitForCall((c) => c.path === all.path && c.webhookId === purchaseId);
      const atPurchase = await hooks.waitForCall((c) => c.path === purchase.path && c.webhookId === purchaseId);
      const buyer = (await p.read.contactByEmail('buyer@example.com'))!;
      const [stored] = await p.read.events({ name: 'purchase' });
      expect(stored.id).toBe(purchaseId);
      for (const call of [atAll, atPurchase]) {
        expect(call.verified).toBe(true);
        expect(call.request.method).toBe('POST');
        expect(call.request.headers['content-type']).toMatch(/^application\/json/);
        expect(call.request.headers['user-agent']).toMatch(/^Mailroom-Webhooks\/\d+\.\d+\.\d+/);
        expect(Math.abs(Number(call.request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
        expect(String(call.request.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(Object.keys(call.event!).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
        expect(call.event).toEqual({
          id: purchaseId,
          type: 'purchase',
          timestamp: stored.createdAt,
          data: expect.objectContaining({ contact: { id: buyer.id, email: 'buyer@example.com' }, amount: 42, currency: 'EUR', items: [{ sku: 'a' }] }),
        });
        expect(call.webhookId).toBe(call.event!.id);
      }
      // Each endpoint signs with its own secret.
      expect(hooks.verifies(atAll, purchase.secret)).toBe(false);

      // The emitted email.sent reaches * and email.*, with the email's fields.
      const sentEvent = (await waitFor(async () => (await p.read.emailEvents(emailId, 'email.sent'))[0]))!;
      const reader = (await p.read.contactByEmail('reader@example.org'))!;
      for (const path of [all.path, email.path]) {
        const call = await hooks.waitForCall((c) => c.path === path && c.event?.type === 'email.sent');
        expect(call.verified).toBe(true);
        expect(call.webhookId).toBe(sentEvent.id);
        expect(call.event).toEqual({
          id: sentEvent.id,
          type: 'email.sent',
          timestamp: sentEvent.createdAt,
          data: expect.objectContaining({ contact: { id: reader.id, email: 'reader@example.org' }, emailId, subject: 'Hello hooks', from: 'hello@acme.test', templateId: null, campaignId: null }),
        });
      }
      await hooks.waitForCall((c) => c.path === all.path && c.webhookId === otherId);
      // An emitted contact event: the tracked opt-out flips the contact, recorded as contact.unsubscribed.
      await p.api.post('/v1/track', { email: 'buyer@example.com', event: 'optout', subscribed: false }).expect(200);
      const [unsubscribed] = await waitFor(async () => {
        const found = await p.read.events({ name: 'contact.unsubscribed' });
        return found.length ? found : undefined;
      });
      const flip = await hooks.waitForCall((c) => c.path === all.path && c.webhookId === unsubscribed.id);
      expect(flip.verified).toBe(true);
      expect(flip.event).toMatchObject({ id: unsubscribed.id, type: 'contact.unsubscribed', timestamp: unsubscribed.createdAt, data: { contact: { id: buyer.id, email: 'buyer@example.com' } } });

      // A sentinel each restricted endpoint matches, tracked last: once it arrived everywhere, the
      // earlier events have been fanned out (the outbox hands them over in order).
      const sentinel = await track(p, 'buyer@example.com', 'sentinel');
      for (const path of [email.path, purchase.path, nothing.path]) await hooks.waitForCall((c) => c.path === path && c.webhookId === sentinel);
      const types = async (id: string) => new Set((await webhooksOf(p.api).allDeliveries(id)).map((d) => d.type));
      expect(await types(purchase.id)).toEqual(new Set(['purchase', 'sentinel']));
      expect(await types(nothing.id)).toEqual(new Set(['sentinel']));
      const emailTypes = await types(email.id);
      expect(emailTypes.has('purchase') || emailTypes.has('page.view')).toBe(false);
      expect(emailTypes.has('email.sent')).toBe(true);
      expect([...emailTypes].every((t) => t.startsWith('email.') || t === 'sentinel')).toBe(true);
      expect(hooks.received(purchase.path).map((c) => c.event?.type).sort()).toEqual(['purchase', 'sentinel']);
      expect(hooks.received(nothing.path).map((c) => c.event?.type)).toEqual(['sentinel']);
      expect(hooks.received(email.path).every((c) => c.event!.type.startsWith('email.') || c.event!.type === 'sentinel')).toBe(true);
      // The same event carries the same webhook-id at every endpoint; every call verified.
      expect(hooks.received().filter((c) => [all.path, email.path, purchase.path, nothing.path].includes(c.path)).every((c) => c.verified)).toBe(true);
    });

    it("keeps data.contact the service's own: a tracked event's data cannot replace it, in a delivery or a replay", async () => {
      const p = await s.newProject('contact spoof');
      const hook = await endpoint(p, 'spoof', ['spoof']);
      // /v1/track takes the public key, which browsers hold: its data must not speak for the contact.
      const forged = { id: 'cnt_00000000000000000000000000000000', email: 'ceo@example.com' };
      const res = await p.publicApi.post('/v1/track', { email: 'visitor@example.com', event: 'spoof', data: { contact: forged, amount: 1 } }).expect(200);
      const eventId = res.body.data.event as string;
      const visitor = { id: res.body.data.contact as string, email: 'visitor@example.com' };
      const call = await hooks.waitForCall((c) => c.path === hook.path && c.webhookId === eventId);
      expect(call.event!.data).toMatchObject({ contact: visitor, amount: 1 });
      await p.api.post(`/webhooks/${hook.id}/replay`, { since: new Date(Date.parse(call.event!.timestamp) - 1_000).toISOString() }).expect(202);
      const [, replayed] = await hooks.waitForCalls(2, (c) => c.path === hook.path && c.webhookId === eventId);
      expect(replayed.event!.data).toMatchObject({ contact: visitor, amount: 1 });
    });

    it('rotate-secret: the new secret is shown once, and both secrets sign during the window', async () => {
      const p = await s.newProject('rotation');
      const hook = await endpoint(p, 'rotate', ['*']);
      const before = await track(p, 'r@example.com', 'before.rotation');
      const old = await hooks.waitForCall((c) => c.path === hook.path && c.webhookId === before);
      expect(String(old.request.headers['webhook-signature']).split(' ')).toHaveLength(1);

      const rotated = await p.api.post(`/webhooks/${hook.id}/rotate-secret`).expect(200);
      expect(Object.keys(rotated.body)).toEqual(['secret']);
      expect(rotated.body.secret).toMatch(SECRET);
      expect(rotated.body.secret).not.toBe(hook.secret);
      const shown = await webhooksOf(p.api).get(hook.id);
      expect(JSON.stringify(shown)).not.toContain('whsec_');
      // The previous secret signs for 24 hours.
      const window = Date.parse((shown as WebhookView & { previousSecretExpiresAt: string }).previousSecretExpiresAt) - Date.now();
      expect(window).toBeGreaterThan(23 * 3_600_000);
      expect(window).toBeLessThanOrEqual(24 * 3_600_000);
      hooks.secret(hook.path, hook.secret, rotated.body.secret);

      const after = await track(p, 'r@example.com', 'after.rotation');
      const call = await hooks.waitForCall((c) => c.path === hook.path && c.webhookId === after);
      expect(String(call.request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(call.verifiedWith).toEqual([hook.secret, rotated.body.secret]);
      // A receiver that knows only one of them verifies too.
      expect(hooks.verifies(call, hook.secret)).toBe(true);
      expect(hooks.verifies(call, rotated.body.secret)).toBe(true);
      expect(hooks.verifies(call, `whsec_${randomBytes(32).toString('base64')}`)).toBe(false);
    });

    it('test: delivers one webhook.test event now and answers the attempt', async () => {
      const p = await s.newProject('test route');
      const hook = await endpoint(p, 'test', ['purchase']);
      const res = await p.api.post(`/webhooks/${hook.id}/test`).expect(200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['durationMs', 'error', 'responseStatus', 'status']));
      expect(res.body).toMatchObject({ status: 'succeeded', responseStatus: 200, error: null });
      expect(res.body.durationMs).toEqual(expect.any(Number));
      const call = await hooks.waitForCall((c) => c.path === hook.path);
      expect(call.verified).toBe(true);
      expect(call.event).toMatchObject({ type: 'webhook.test', id: call.webhookId });

      hooks.respond(hook.path, faults.status(503, 'busy'));
      const failed = await p.api.post(`/webhooks/${hook.id}/test`).expect(200);
      expect(failed.body).toMatchObject({ status: 'failed', responseStatus: 503, error: expect.any(String) });
      hooks.respond(hook.path, faults.reset);
      const reset = await p.api.post(`/webhooks/${hook.id}/test`).expect(200);
      expect(reset.body).toMatchObject({ status: 'failed', responseStatus: null, error: expect.any(String) });
      expect(hooks.received(hook.path)).toHaveLength(3);
      // Each test is in the log, never retried.
      const logged = await webhooksOf(p.api).allDeliveries(hook.id);
      expect(logged.map((d) => [d.type, d.status, d.attempts, d.responseStatus])).toEqual([
        ['webhook.test', 'failed', 1, null],
        ['webhook.test', 'failed', 1, 503],
        ['webhook.test', 'succeeded', 1, 200],
      ]);
    });
  });

  describe('the delivery log', () => {
    it('lists deliveries as a cursor list with a status filter; a delivery shows its attempts (headers, 2 KB of body); retry answers 202 and attempts again', async () => {
      const p = await s.newProject('log');
      const w = webhooksOf(p.api);
      const hook = await endpoint(p, 'log', ['log.*']);
      const bigBody = 'y'.repeat(3_000);
      hooks.respond(hook.path, (r) => (r.json as { type?: string })?.type === 'log.fail' ? { status: 500, body: 'nope' } : { status: 200, headers: { 'x-receiver': 'loopback', 'content-type': 'text/plain' }, body: bigBody });
      const ok: string[] = [];
      for (let i = 0; i < 3; i++) {
        ok.push(await track(p, `log${i}@example.com`, 'log.ok', { n: i }));
        await hooks.waitForCall((c) => c.path === hook.path && c.webhookId === ok[i]);
      }
      const fail = await track(p, 'fail@example.com', 'log.fail');
      await track(p, 'skip@example.com', 'other.event');

      // The failing one retries on the schedule until its 8 attempts are spent.
      const spent = await w.deliveryOf(hook.id, fail, (d) => d.status === 'failed', 60_000);
      expect(spent.attemptCount).toBe(ATTEMPTS);
      expect(hooks.received(hook.path).filter((c) => c.webhookId === fail)).toHaveLength(ATTEMPTS);
      expect(spent).toMatchObject({ status: 'failed', responseStatus: 500, nextAttemptAt: null, type: 'log.fail', eventId: fail });

      const first = await w.deliveries(hook.id, { limit: 2 });
      expect(Object.keys(first).sort()).toEqual(['cursor', 'data', 'hasMore', 'total']);
      expect(first).toMatchObject({ total: 4, hasMore: true, cursor: expect.any(String) });
      expect(first.data).toHaveLength(2);
      for (const d of first.data) expect(Object.keys(d)).toEqual(expect.arrayContaining(DELIVERY_KEYS));
      const second = await w.deliveries(hook.id, { limit: 2, cursor: first.cursor });
      // total on the first page only (api-spec.md, cursor lists).
      expect(second).toMatchObject({ total: 0, hasMore: false });
      expect(second.data).toHaveLength(2);
      const ids = [...first.data, ...second.data].map((d) => d.eventId);
      expect(new Set(ids)).toEqual(new Set([...ok, fail]));
      // Newest first.
      expect(ids[0]).toBe(fail);
      expect((await w.deliveries(hook.id, { status: 'succeeded' })).total).toBe(3);
      expect((await w.deliveries(hook.id, { status: 'succeeded' })).data.map((d) => d.eventId).sort()).toEqual([...ok].sort());
      expect((await w.deliveries(hook.id, { status: 'failed' })).data.map((d) => d.eventId)).toEqual([fail]);
      expect((await w.deliveries(hook.id, { status: 'pending' })).total).toBe(0);
      // Bad filters: 422 naming the parameter; a bad cursor 400; a large limit is clamped.
      for (const [query, field] of [[{ status: 'done' }, 'status'], [{ limit: '0' }, 'limit'], [{ limit: 'ten' }, 'limit']] as const) {
        const res = await p.api.get(`/webhooks/${hook.id}/deliveries`, query).expect(422);
        expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      }
      await p.api.get(`/webhooks/${hook.id}/deliveries`, { cursor: 'not-a-cursor' }).expect(400);
      expect((await w.deliveries(hook.id, { limit: '99999' })).data).toHaveLength(4);

      // One delivery with its attempt: status, response headers and the first 2 KB of the body.
      const okDelivery = await w.deliveryOf(hook.id, ok[0], (d) => d.status === 'succeeded');
      expect(okDelivery).toMatchObject({ status: 'succeeded', attemptCount: 1, responseStatus: 200, error: null, nextAttemptAt: null, type: 'log.ok' });
      expect(okDelivery.durationMs).toEqual(expect.any(Number));
      expect(okDelivery.attempts).toHaveLength(1);
      const [attempt] = okDelivery.attempts;
      expect(attempt).toMatchObject({ attempt: 1, responseStatus: 200, error: null, durationMs: expect.any(Number) });
      expect(attempt.responseHeaders).toMatchObject({ 'x-receiver': 'loopback', 'content-type': 'text/plain' });
      // The receiver answered 3,000 bytes; the log keeps the first 2,048.
      expect(attempt.responseBody).toBe(bigBody.slice(0, 2048));
      expect(okDelivery.body).toBe(hooks.received(hook.path).find((c) => c.webhookId === ok[0])!.request.text);
      expect(spent.attempts).toHaveLength(ATTEMPTS);
      for (const a of spent.attempts) expect(a).toMatchObject({ responseStatus: 500, error: expect.any(String) });

      // Retry: 202, an attempt now; the receiver has it again with the same webhook-id.
      hooks.respond(hook.path, { status: 204 });
      const retried = await p.api.post(`/webhooks/${hook.id}/deliveries/${spent.id}/retry`);
      expect(retried.status).toBe(202);
      const call = await hooks.waitForCalls(ATTEMPTS + 1, (c) => c.path === hook.path && c.webhookId === fail);
      expect(call.at(-1)!.verified).toBe(true);
      const after = await w.deliveryOf(hook.id, fail, (d) => d.status === 'succeeded');
      expect(after).toMatchObject({ attemptCount: ATTEMPTS + 1, responseStatus: 204, error: null });
      expect(after.attempts).toHaveLength(ATTEMPTS + 1);
    }, 120_000);

    it('replay: 202 {queued}; every matching event of the window arrives again with the same webhook-id; at most 7 days back', async () => {
      const p = await s.newProject('replay');
      const hook = await endpoint(p, 'replay', ['replay.*']);
      const events: Array<{ id: string; at: number }> = [];
      for (let i = 0; i < 3; i++) {
        const id = await track(p, 'replay@example.com', `replay.e${i}`, { i });
        const call = await hooks.waitForCall((c) => c.path === hook.path && c.webhookId === id);
        events.push({ id, at: Date.parse(call.event!.timestamp) });
      }
      await track(p, 'replay@example.com', 'unrelated');
      const since = new Date(events[0].at - 1).toISOString();
      const until = new Date(Math.floor((events[1].at + events[2].at) / 2)).toISOString();
      expect(events[2].at).toBeGreaterThan(events[1].at);

      const windowed = await p.api.post(`/webhooks/${hook.id}/replay`, { since, until });
      expect(windowed.status).toBe(202);
      expect(windowed.body).toEqual({ queued: 2 });
      for (const e of events.slice(0, 2)) await hooks.waitForCalls(2, (c) => c.path === hook.path && c.webhookId === e.id);
      // One replay of an endpoint at a time: the next once this one's deliveries are no longer pending.
      await waitFor(async () => ((await webhooksOf(p.api).deliveries(hook.id, { status: 'pending', limit: 1 })).total === 0 ? true : undefined), 30_000, 200);

      const open = await p.api.post(`/webhooks/${hook.id}/replay`, { since });
      expect(open.status).toBe(202);
      expect(open.body).toEqual({ queued: 3 });
      for (const [i, e] of events.entries()) await hooks.waitForCalls(i < 2 ? 3 : 2, (c) => c.path === hook.path && c.webhookId === e.id);
      const calls = hooks.received(hook.path);
      expect(calls.every((c) => c.verified)).toBe(true);
      expect(calls.map((c) => c.event!.type).every((t) => t.startsWith('replay.'))).toBe(true);
      // The replayed body is the event's, unchanged.
      const firsts = calls.filter((c) => c.webhookId === events[0].id).map((c) => c.event);
      expect(firsts[1]).toEqual(firsts[0]);

      const tooOld = new Date(Date.now() - 8 * 24 * 3_600_000).toISOString();
      expectValidation(await p.api.post(`/webhooks/${hook.id}/replay`, { since: tooOld }), [/^since$/]);
      expectValidation(await p.api.post(`/webhooks/${hook.id}/replay`, {}), [/^since$/]);
      expectValidation(await p.api.post(`/webhooks/${hook.id}/replay`, { since: 'yesterday-ish' }), [/^since$/]);
      expectValidation(await p.api.post(`/webhooks/${hook.id}/replay`, { since, until: since }), [/^until$/]);
    });
  });

  describe('misbehaving receivers', () => {
    it('records a hang (10 s timeout), a redirect (not followed), a 50 MB body (2 KB read), a reset and a 500 as failed attempts, retries each, and keeps delivering', async () => {
      const p = await s.newProject('faults');
      const w = webhooksOf(p.api);
      const cases = {
        hang: faults.hang,
        redirect: faults.redirect(hooks.url('/redirected-here')),
        huge: faults.hugeBody(500),
        reset: faults.reset,
        error: faults.status(500, 'internal'),
      };
      const endpoints: Record<string, Awaited<ReturnType<typeof endpoint>>> = {};
      for (const [name, fault] of Object.entries(cases)) {
        endpoints[name] = await endpoint(p, name, ['fault']);
        // The first attempt meets the fault; the retry is answered 200.
        hooks.respondOnce(endpoints[name].path, fault);
        hooks.respond(endpoints[name].path, { status: 200 });
      }
      const healthy = await endpoint(p, 'healthy', ['later']);
      const eventId = await track(p, 'faults@example.com', 'fault');
      const firstCalls: Record<string, WebhookCall> = {};
      for (const [name, e] of Object.entries(endpoints)) firstCalls[name] = await hooks.waitForCall((c) => c.path === e.path && c.webhookId === eventId);

      // Deliveries keep flowing while those fail: a later event reaches the healthy endpoint while
      // the hung request is still open.
      const later = await track(p, 'faults@example.com', 'later');
      const laterCall = await hooks.waitForCall((c) => c.path === healthy.path && c.webhookId === later, 20_000);
      const hangEnded = firstCalls.hang.request.outcome.closedAt;
      expect(hangEnded === null || hangEnded.getTime() > laterCall.request.receivedAt.getTime()).toBe(true);

      const settled: Record<string, DeliveryDetail> = {};
      for (const [name, e] of Object.entries(endpoints)) {
        settled[name] = await w.deliveryOf(e.id, eventId, (d) => d.status === 'succeeded', 60_000);
        const tries = settled[name].attempts;
        expect({ name, attempts: settled[name].attemptCount, tries: tries.length }).toEqual({ name, attempts: 2, tries: 2 });
        expect({ name, first: tries[0].error }).toEqual({ name, first: expect.any(String) });
        expect({ name, second: tries[1] }).toMatchObject({ name, second: { responseStatus: 200, error: null } });
        expect(hooks.received(e.path).map((c) => c.webhookId)).toEqual([eventId, eventId]);
        expect(hooks.received(e.path).every((c) => c.verified)).toBe(true);
      }
      const first = (name: string) => settled[name].attempts[0];

      // Hang: the service gave up after its 10 s timeout and closed the connection.
      const hung = await hooks.waitForEnd(firstCalls.hang);
      expect(hung.request.outcome.state).toBe('closed-by-client');
      expect(first('hang')).toMatchObject({ responseStatus: null, error: expect.stringMatching(/time/i) });
      expect(first('hang').durationMs).toBeGreaterThanOrEqual(9_000);
      // Redirect: recorded as the 302 it was, never followed.
      expect(first('redirect')).toMatchObject({ responseStatus: 302, error: expect.any(String) });
      expect(hooks.http.received('/redirected-here')).toHaveLength(0);
      // 50 MB: at most 2 KB read for the log, then the connection closed.
      const huge = await hooks.waitForEnd(firstCalls.huge);
      expect(huge.request.outcome.state).toBe('closed-by-client');
      expect(huge.request.outcome.bodyBytes).toBeLessThan(50 * 1024 * 1024);
      expect(first('huge').responseStatus).toBe(500);
      expect(Buffer.byteLength(String(first('huge').responseBody ?? ''))).toBeLessThanOrEqual(2048);
      expect(Buffer.byteLength(String(first('huge').responseBody ?? ''))).toBeGreaterThan(0);
      // Reset: no status, an error.
      expect(first('reset')).toMatchObject({ responseStatus: null, error: expect.any(String) });
      expect(firstCalls.reset.request.outcome.state).toBe('reset');
      // 500: the status and body.
      expect(first('error')).toMatchObject({ responseStatus: 500, responseBody: 'internal', error: expect.any(String) });
    }, 120_000);

    it('shows a failing delivery as pending with its next attempt scheduled', async () => {
      const p = await s.newProject('pending');
      const hook = await endpoint(p, 'pending', ['*']);
      hooks.respond(hook.path, faults.status(503));
      const eventId = await track(p, 'pending@example.com', 'pending.event');
      // A claimed attempt counts before its answer is recorded: wait for the answer of the first one.
      const pending = await webhooksOf(p.api).deliveryOf(hook.id, eventId, (d) => d.attemptCount >= 1 && d.status === 'pending' && d.responseStatus !== null);
      expect(pending).toMatchObject({ status: 'pending', responseStatus: 503, error: expect.any(String) });
      expect(Date.parse(pending.nextAttemptAt!)).toBeGreaterThan(Date.parse(pending.lastAttemptAt!));
      expect((await webhooksOf(p.api).deliveries(hook.id, { status: 'pending' })).data.map((d) => d.eventId)).toEqual([eventId]);
      hooks.respond(hook.path, { status: 200 });
      await webhooksOf(p.api).deliveryOf(hook.id, eventId, (d) => d.status === 'succeeded', 30_000);
    });

    it('410 disables the endpoint at once (GONE): nothing more is delivered to it', async () => {
      const p = await s.newProject('gone');
      const w = webhooksOf(p.api);
      const gone = await endpoint(p, 'gone', ['gone.*']);
      const companion = await endpoint(p, 'companion', ['gone.*']);
      hooks.respond(gone.path, faults.status(410, 'gone'));
      const first = await track(p, 'gone@example.com', 'gone.first');
      await hooks.waitForCall((c) => c.path === gone.path && c.webhookId === first);
      const disabled = await waitFor(async () => {
        const h = await w.get(gone.id);
        return h.enabled === false ? h : undefined;
      });
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'GONE' });
      const record = await w.deliveryOf(gone.id, first, (d) => d.status !== 'pending');
      expect(record).toMatchObject({ status: 'failed', responseStatus: 410 });

      const second = await track(p, 'gone@example.com', 'gone.second');
      await hooks.waitForCall((c) => c.path === companion.path && c.webhookId === second);
      expect(hooks.received(gone.path).map((c) => c.webhookId)).toEqual([first]);
      expect((await w.allDeliveries(gone.id)).map((d) => d.eventId)).toEqual([first]);
      // Neither a retry nor a replay reaches a disabled endpoint.
      expect((await p.api.post(`/webhooks/${gone.id}/deliveries/${record.id}/retry`)).status).toBe(409);
      expect((await p.api.post(`/webhooks/${gone.id}/replay`, { since: new Date(Date.now() - 60_000).toISOString() })).status).toBe(409);
      expect(hooks.received(gone.path)).toHaveLength(1);

      // Enabled again by hand: the reason clears and new events arrive.
      hooks.respond(gone.path, { status: 200 });
      expect((await p.api.patch(`/webhooks/${gone.id}`, { enabled: true }).expect(200)).body).toMatchObject({ enabled: true, disabledReason: null });
      const third = await track(p, 'gone@example.com', 'gone.third');
      await hooks.waitForCall((c) => c.path === gone.path && c.webhookId === third);
      expect(hooks.received(gone.path).map((c) => c.webhookId)).toEqual([first, third]);
    });

    it('deleting an endpoint stops the retries of its pending deliveries', async () => {
      const p = await s.newProject('deleted');
      const doomed = await endpoint(p, 'doomed', ['retrying']);
      const witness = await endpoint(p, 'witness', ['retrying']);
      for (const e of [doomed, witness]) hooks.respond(e.path, faults.status(503));
      const eventId = await track(p, 'deleted@example.com', 'retrying');
      await hooks.waitForCalls(2, (c) => c.path === doomed.path && c.webhookId === eventId);
      await p.api.delete(`/webhooks/${doomed.id}`).expect(204);
      // The witness is retried on the same schedule. Counted from its next attempt (an attempt of the
      // deleted endpoint in flight at the deletion has arrived by then), two more of its attempts
      // and none of the deleted one's.
      const witnessSeen = hooks.received(witness.path).length;
      await hooks.waitForCalls(witnessSeen + 1, (c) => c.path === witness.path, 30_000);
      const seen = hooks.received(doomed.path).length;
      await hooks.waitForCalls(witnessSeen + 3, (c) => c.path === witness.path, 30_000);
      expect(hooks.received(doomed.path)).toHaveLength(seen);
      hooks.respond(witness.path, { status: 200 });
    });

    it('a disabled endpoint receives nothing; PATCH {enabled: true} resumes with new events', async () => {
      const p = await s.newProject('disabled');
      const w = webhooksOf(p.api);
      const off = await endpoint(p, 'off', ['toggle.*'], { enabled: false });
      const on = await endpoint(p, 'on', ['toggle.*']);
      const during = await track(p, 'toggle@example.com', 'toggle.during');
      await hooks.waitForCall((c) => c.path === on.path && c.webhookId === during);
      expect(await w.allDeliveries(off.id)).toEqual([]);
      await p.api.patch(`/webhooks/${off.id}`, { enabled: true }).expect(200);
      const after = await track(p, 'toggle@example.com', 'toggle.after');
      await hooks.waitForCall((c) => c.path === off.path && c.webhookId === after);
      await hooks.waitForCall((c) => c.path === on.path && c.webhookId === after);
      expect(hooks.received(off.path).map((c) => c.webhookId)).toEqual([after]);
      expect((await w.allDeliveries(off.id)).map((d) => d.eventId)).toEqual([after]);
      // Disabled by PATCH: nothing again.
      await p.api.patch(`/webhooks/${off.id}`, { enabled: false }).expect(200);
      const last = await track(p, 'toggle@example.com', 'toggle.last');
      await hooks.waitForCall((c) => c.path === on.path && c.webhookId === last);
      expect(hooks.received(off.path).map((c) => c.webhookId)).toEqual([after]);
    });
  });
});

describe('event webhooks: auto-disable after a window without success (FAILING)', () => {
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  // The window at test scale (production: 5 days), checked every half second.
  const s = useSession(() => ({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    EMAIL_TRANSPORT: 'smtp',
    SMTP_URL: smtp.url,
    DOMAIN_VERIFICATION: 'off',
    ...FAST,
    WEBHOOK_AUTO_DISABLE_AFTER_MS: '3000',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
  }));

  it("disables an endpoint whose deliveries keep failing, emails the project's owners, and delivers nothing more to it", async () => {
    const w = webhooksOf(s.api);
    const failing = await w.create({ url: hooks.url('/failing'), events: ['*'] });
    const healthy = await w.create({ url: hooks.url('/healthy'), events: ['*'] });
    hooks.secret('/failing', failing.secret).secret('/healthy', healthy.secret);
    hooks.respond('/failing', faults.status(500));
    const first = await track(s, 'f@example.com', 'failing.first');
    await hooks.waitForCall((c) => c.path === '/failing' && c.webhookId === first);
    const disabled = await waitFor(async () => {
      const h = await w.get(failing.id);
      return h.enabled ? undefined : h;
    }, 30_000, 250);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'FAILING' });
    // Its pending delivery ends failed: no attempt is due any more.
    const ended = (await w.allDeliveries(failing.id)).find((d) => d.eventId === first)!;
    expect(ended).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // (The owner's inbox also holds the address verification mail sent at sign-up.)
    const aboutWebhooks = () => smtp.to(s.project.email).filter((m) => /webhook/i.test(`${m.parsed!.subject}`));
    const [mail] = await waitFor(async () => (aboutWebhooks().length ? aboutWebhooks() : undefined), 30_000);
    expect(mail.parsed!.text).toContain(hooks.url('/failing'));
    // The endpoint that succeeds stays enabled.
    expect(await w.get(healthy.id)).toMatchObject({ enabled: true, disabledReason: null });

    const later = await track(s, 'f@example.com', 'failing.later');
    await hooks.waitForCall((c) => c.path === '/healthy' && c.webhookId === later);
    expect(hooks.received('/failing').some((c) => c.webhookId === later)).toBe(false);
    expect((await w.allDeliveries(failing.id)).map((d) => d.eventId)).not.toContain(later);
    // One email, not one per sweep.
    expect(aboutWebhooks()).toHaveLength(1);

    hooks.respond('/failing', { status: 200 });
    expect((await s.api.patch(`/webhooks/${failing.id}`, { enabled: true }).expect(200)).body).toMatchObject({ enabled: true, disabledReason: null });
    const resumed = await track(s, 'f@example.com', 'failing.resumed');
    await hooks.waitForCall((c) => c.path === '/failing' && c.webhookId === resumed && c.delivered);
  });
});

describe('event webhooks (private addresses refused)', () => {
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  const s = useSession(FAST);

  it('records the refusal of a loopback URL as a failed attempt and sends nothing', async () => {
    const w = webhooksOf(s.api);
    const urls = [hooks.url('/v4'), `http://localhost:${hooks.port}/name`, `http://[::ffff:127.0.0.1]:${hooks.port}/mapped`, `http://[::1]:${hooks.port}/v6`];
    const created = [];
    for (const url of urls) created.push(await w.create({ url, events: ['private'] }));
    const eventId = await track(s, 'private@example.com', 'private');
    for (const [i, hook] of created.entries()) {
      const d = await w.deliveryOf(hook.id, eventId, (x) => x.attemptCount >= 1);
      // Only that the destination is not allowed: never what a name resolved to.
      expect({ url: urls[i], responseStatus: d.responseStatus, error: d.error }).toEqual({ url: urls[i], responseStatus: null, error: 'refused: the destination is not allowed' });
      expect(d.status).not.toBe('succeeded');
    }
    const tested = await s.api.post(`/webhooks/${created[0].id}/test`).expect(200);
    expect(tested.body).toMatchObject({ status: 'failed', responseStatus: null, error: 'refused: the destination is not allowed' });
    expect(hooks.http.requests).toHaveLength(0);
  });
});

describe('event webhooks: replay limits and fairness between projects', () => {
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  // A tracks thousands of events in the flood test: past the default request rate.
  const s: Session = useSession(() => ({ WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', ...FAST }));
  const REPLAY_MAX = 10_000;

  it("caps a replay at 10,000 deliveries (422 naming since, with the count), refuses a second while one is pending (409), and never delays another project's new event", async () => {
    const a = await s.newProject('replay-a');
    const b = await s.newProject('replay-b');
    const slow = await endpointOf(a, 'slow', ['bulk.*']);
    // A slow receiver: every request is answered after a second, so A's replay stays a backlog.
    hooks.respond(slow.path, { status: 200, delayMs: 1_000 });
    const quick = await endpointOf(b, 'quick', ['fresh.*']);

    // 10,001 events of A recorded an hour ago, a millisecond apart (written straight to the table: no fan-out).
    const base = new Date(Date.now() - 3_600_000);
    // Arranged in SQL: no endpoint backdates an event, and 10,001 tracks would fan out.
    await s.db.query(
      `INSERT INTO events (project_id, name, data, created_at) SELECT $1, 'bulk.e', jsonb_build_object('i', i), $2::timestamptz + i * interval '1 millisecond' FROM generate_series(0, $3 - 1) i`,
      [a.project.id, base.toISOString(), REPLAY_MAX + 1],
    );
    const since = base.toISOString();
    const tooMany = await a.api.post(`/webhooks/${slow.id}/replay`, { since });
    expectValidation(tooMany, [/^since$/]);
    expect(tooMany.body.error.errors[0].message).toContain(String(REPLAY_MAX + 1));
    expect((await webhooksOf(a.api).deliveries(slow.id, { limit: 1 })).total).toBe(0);

    // The window narrowed to 10,000 events is queued; a second replay while it is pending is 409.
    const until = new Date(base.getTime() + REPLAY_MAX).toISOString();
    const queued = await a.api.post(`/webhooks/${slow.id}/replay`, { since, until });
    expect({ status: queued.status, body: queued.body }).toEqual({ status: 202, body: { queued: REPLAY_MAX } });
    const again = await a.api.post(`/webhooks/${slow.id}/replay`, { since, until });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');

    // With A's backlog in flight, B's new event reaches B's receiver within a few seconds.
    await hooks.waitForCalls(10, (c) => c.path === slow.path, 30_000);
    const trackedAt = Date.now();
    const eventId = await track(b, 'fresh@example.com', 'fresh.e');
    const call = await hooks.waitForCall((c) => c.path === quick.path && c.webhookId === eventId, 60_000);
    const delayMs = call.request.receivedAt.getTime() - trackedAt;
    const backlog = (await webhooksOf(a.api).deliveries(slow.id, { status: 'pending', limit: 1 })).total;
    process.stdout.write(`event-webhooks fairness: B's first attempt ${delayMs} ms after its track, behind A's replay backlog of ${backlog} pending deliveries\n`);
    expect(backlog).toBeGreaterThan(REPLAY_MAX / 2);
    expect(delayMs).toBeLessThan(5_000);
    // A's backlog ends with its endpoint.
    await a.api.delete(`/webhooks/${slow.id}`).expect(204);
  }, 180_000);

  it("takes another project's new event ahead of a project's backlog of new events to a slow receiver", async () => {
    const a = await s.newProject('flood-a');
    const b = await s.newProject('flood-b');
    const slow = await endpointOf(a, 'flood', ['flood.*']);
    // Five seconds an answer (within the 10 s timeout), so A's backlog outlasts the flood being
    // tracked even on a loaded machine (at one second it could drain before B tracks); it ends with
    // the endpoint below.
    hooks.respond(slow.path, { status: 200, delayMs: 5_000 });
    const quick = await endpointOf(b, 'first', ['first.*']);

    // A tracks 4,000 events (about five minutes of a five-second receiver at the default concurrency).
    const FLOOD = 4_000;
    for (let i = 0; i < FLOOD; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => track(a, `flood${(i + j) % 20}@example.com`, 'flood.e', { i: i + j })));
    }
    await waitFor(async () => (await webhooksOf(a.api).deliveries(slow.id, { limit: 1 })).total === FLOOD || undefined, 60_000);
    await hooks.waitForCalls(10, (c) => c.path === slow.path, 30_000);

    const trackedAt = Date.now();
    const eventId = await track(b, 'first@example.com', 'first.e');
    const call = await hooks.waitForCall((c) => c.path === quick.path && c.webhookId === eventId, 120_000);
    const delayMs = call.request.receivedAt.getTime() - trackedAt;
    const backlog = (await webhooksOf(a.api).deliveries(slow.id, { status: 'pending', limit: 1 })).total;
    process.stdout.write(`event-webhooks fairness (new events): B's first attempt ${delayMs} ms after its track, behind A's backlog of ${backlog} pending deliveries\n`);
    expect(backlog).toBeGreaterThan(FLOOD / 4);
    expect(delayMs).toBeLessThan(10_000);
    await a.api.delete(`/webhooks/${slow.id}`).expect(204);
  }, 300_000);

  async function endpointOf(p: ProjectSession, name: string, events: string[]) {
    const path = newPath(name);
    const created = await webhooksOf(p.api).create({ url: hooks.url(path), events });
    hooks.secret(path, created.secret);
    return { ...created, path };
  }
});
