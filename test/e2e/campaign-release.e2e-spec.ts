import { ProjectSession, SETTLED_EMAIL_STATUSES, useFixture, useSession, waitFor } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

const campaignBody = (over: Record<string, unknown> = {}) => ({
  name: 'Release',
  subject: 'Hello {{email}}',
  body: '<p>Hi {{email}}</p>',
  from: 'news@example.com',
  audienceType: 'ALL',
  ...over,
});

/** `YYYY-MM-DDTHH:MM:SS` of `date` in UTC: a wall-clock time without offset. */
const wall = (date: Date) => date.toISOString().slice(0, 19);
const HOUR = 3_600_000;

/*
 * Recipient time zones, waves and sending windows (docs/delivery-control.md). Time moves by SQL:
 * the release schedule lives in columns of the campaign row (`wave_started_at`, `release_moment`,
 * `local_scheduled_for`, `delivery`), which the tests rewrite as a clock would move; everything
 * else goes through HTTP.
 */
describe('campaign release schedule', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off' }));
  const contacts = async (p: ProjectSession, list: Array<[string, Record<string, unknown>?]>) => {
    for (const [email, data] of list) await p.api.post('/contacts', { email, ...(data ? { data } : {}) }).expect((r) => expect([200, 201]).toContain(r.status));
  };
  const create = async (p: ProjectSession, over: Record<string, unknown> = {}) => (await p.api.post('/campaigns', campaignBody(over)).expect(201)).body.data as { id: string };
  const received = (to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to)).length;
  const stats = async (p: ProjectSession, id: string) => (await p.api.get(`/campaigns/${id}/stats`).expect(200)).body;
  const get = async (p: ProjectSession, id: string) => (await p.api.get(`/campaigns/${id}`).expect(200)).body;
  /** Waits until the stats match (the engine's tick runs every 250 ms). */
  const until = (p: ProjectSession, id: string, check: (st: Record<string, unknown>, c: Record<string, unknown>) => boolean, ms = 20_000) =>
    waitFor(async () => {
      const [st, c] = await Promise.all([stats(p, id), get(p, id)]);
      return check(st, c) ? { st, c } : undefined;
    }, ms, 100);
  // Time travel in SQL: no endpoint moves a campaign's clock (wave start, release moment, window).
  const move = (id: string, assignments: string) => s.db.query(`UPDATE campaigns SET ${assignments} WHERE id = $1`, [id]);
  /**
   * Received, and nothing more to come until the clock moves: the release schedule waits for its
   * next batch (`nextBatchAt`) and every email it wrote is sent.
   */
  const settled = async (p: ProjectSession, id: string, emails: string[], expected: number[]) => {
    const st = await waitFor(async () => {
      if (!emails.every((e, i) => received(e) >= expected[i])) return undefined;
      const [now, written] = await Promise.all([stats(p, id), p.read.emails({ campaignId: id })]);
      return now.nextBatchAt !== null && written.every((e) => SETTLED_EMAIL_STATUSES.includes(e.status)) ? now : undefined;
    }, 20_000, 100);
    expect(emails.map(received)).toEqual(expected);
    return st;
  };

  it('refuses bad delivery settings and bad recipient-zone sends with one 422 item per field', async () => {
    const p = await s.newProject();
    const bad = await p.api
      .post('/campaigns', campaignBody({ delivery: { batchSize: 0, intervalMinutes: 10_081, window: { days: ['mon', 'funday'], from: '18:00', to: '08:00', timezone: 'Mars/Olympus' } } }))
      .expect(422);
    expect(bad.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['delivery.batchSize', 'delivery.intervalMinutes', 'delivery.window.days', 'delivery.window.timezone', 'delivery.window.to']);
    const equal = await p.api.post('/campaigns', campaignBody({ delivery: { window: { days: ['mon'], from: '09:00', to: '09:00', timezone: 'UTC' } } })).expect(422);
    expect(equal.body.error.errors).toEqual([expect.objectContaining({ field: 'delivery.window.to', code: 'out_of_range' })]);
    expect((await p.api.post('/campaigns', campaignBody({ delivery: { intervalMinutes: 5 } })).expect(422)).body.error.errors[0]).toMatchObject({ field: 'delivery.batchSize', code: 'required' });
    await p.api.post('/campaigns', campaignBody({ delivery: 'fast' })).expect(422);
    await p.api.post('/campaigns', campaignBody({ delivery: { batchSize: 1.5 } })).expect(422);
    const ok = await p.api.post('/campaigns', campaignBody({ delivery: { batchSize: 100 } })).expect(201);
    expect(ok.body.data.delivery).toEqual({ batchSize: 100, intervalMinutes: 60 });

    const c = await create(p);
    const send = (body: Record<string, unknown>) => p.api.post(`/campaigns/${c.id}/send`, body).expect(422);
    expect((await send({ scheduledFor: '2030-01-01T09:00:00', timezone: 'Europe/Paris' })).body.error.errors.map((e: { field: string }) => e.field)).toEqual(['timezone']);
    expect((await send({ scheduledFor: '2030-01-01T09:00:00Z', timezone: 'recipient' })).body.error.errors.map((e: { field: string }) => e.field)).toEqual(['scheduledFor']);
    expect((await send({ timezone: 'recipient' })).body.error.errors.map((e: { field: string }) => e.field)).toEqual(['scheduledFor']);
    expect((await send({ scheduledFor: '2030-02-30T09:00:00', timezone: 'recipient', fallbackTimezone: 'Nowhere/Land' })).body.error.errors.map((e: { field: string }) => e.field)).toEqual([
      'scheduledFor',
      'fallbackTimezone',
    ]);
    expect((await send({ scheduledFor: '2030-01-01T09:00:00', fallbackTimezone: 'UTC' })).body.error.errors[0].field).toBe('fallbackTimezone');
    expect((await get(p, c.id)).status).toBe('DRAFT');
  });

  it('sends in waves of batchSize every intervalMinutes; SENDING settings cannot change (409); each contact once', async () => {
    const p = await s.newProject();
    const emails = Array.from({ length: 5 }, (_, i) => `wave${i}@release.example`);
    await contacts(p, emails.map((e) => [e]));
    const c = await create(p, { delivery: { batchSize: 2, intervalMinutes: 30 } });
    await p.api.post(`/campaigns/${c.id}/send`, {}).expect(200);
    const first = await until(p, c.id, (st) => st.waiting === 3 && st.nextBatchAt !== null);
    // Read in SQL: no endpoint shows when a wave started.
    const [{ wave_started_at: started }] = await s.db.query<{ wave_started_at: Date }>(`SELECT wave_started_at FROM campaigns WHERE id = $1`, [c.id]);
    expect(new Date(first.st.nextBatchAt as string).getTime()).toBe(new Date(started).getTime() + 30 * 60_000);
    expect(first.c).toMatchObject({ status: 'SENDING', totalRecipients: 2, delivery: { batchSize: 2, intervalMinutes: 30 } });
    await p.api.put(`/campaigns/${c.id}`, campaignBody({ delivery: { batchSize: 50 } })).expect(409);
    await settled(p, c.id, emails, [1, 1, 0, 0, 0]);
    // The interval passes.
    await move(c.id, `wave_started_at = wave_started_at - interval '31 minutes'`);
    await until(p, c.id, (st) => st.waiting === 1);
    await settled(p, c.id, emails, [1, 1, 1, 1, 0]);
    await move(c.id, `wave_started_at = wave_started_at - interval '31 minutes'`);
    const done = await until(p, c.id, (st, k) => k.status === 'SENT');
    expect(done.st).toMatchObject({ waiting: 0, nextBatchAt: null, totalRecipients: 5 });
    expect(emails.map(received)).toEqual([1, 1, 1, 1, 1]);
    // Read in SQL: no endpoint shows how many waves a campaign took.
    expect((await s.db.query<{ wave_count: number }>(`SELECT wave_count FROM campaigns WHERE id = $1`, [c.id]))[0].wave_count).toBe(3);
  });

  it('starts nothing outside the sending window and goes on when it opens', async () => {
    const p = await s.newProject();
    const emails = ['win0@release.example', 'win1@release.example', 'win2@release.example'];
    await contacts(p, emails.map((e) => [e]));
    // A one-hour window that is not now (UTC), every day.
    const h = new Date().getUTCHours();
    const [from, to] = h < 22 ? [h + 1, h + 2] : [0, 1];
    const hm = (n: number) => `${String(n).padStart(2, '0')}:00`;
    const c = await create(p, { delivery: { window: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: hm(from), to: hm(to), timezone: 'UTC' } } });
    await p.api.post(`/campaigns/${c.id}/send`, {}).expect(200);
    const closed = await until(p, c.id, (st) => st.nextBatchAt !== null);
    const opens = new Date();
    if (h >= 22) opens.setUTCDate(opens.getUTCDate() + 1);
    opens.setUTCHours(from, 0, 0, 0);
    expect(closed.st).toMatchObject({ waiting: 3, nextBatchAt: opens.toISOString() });
    await settled(p, c.id, emails, [0, 0, 0]);
    // The clock reaches the window: the same window, moved to contain now.
    await move(c.id, `delivery = jsonb_set(delivery, '{window}', jsonb_build_object('days', delivery->'window'->'days', 'from', '00:00', 'to', '24:00', 'timezone', 'UTC'))`);
    const sent = await until(p, c.id, (st, k) => k.status === 'SENT');
    expect(sent.st).toMatchObject({ waiting: 0, nextBatchAt: null, totalRecipients: 3 });
    expect(emails.map(received)).toEqual([1, 1, 1]);
  });

  it('releases each zone at the local wall-clock time, SENDING until the last, and a contact whose zone changes still gets one email', async () => {
    const p = await s.newProject();
    const kiri = 'kiri@release.example'; // UTC+14
    const mover = 'mover@release.example'; // New York, then Kiritimati mid-campaign
    const invalid = 'invalid@release.example'; // unknown zone: the fallback
    const none = 'none@release.example'; // no zone: the fallback
    const ny = 'ny@release.example'; // UTC-5 or -4
    await contacts(p, [[kiri, { timezone: 'Pacific/Kiritimati' }], [mover, { timezone: 'America/New_York' }], [invalid, { timezone: 'Mars/Base' }], [none], [ny, { timezone: 'America/New_York' }]]);
    const all = [kiri, mover, invalid, none, ny];
    const c = await create(p);
    // 5 h ahead of UTC on the wall: Kiritimati's moment is 9 h ago, Paris's 3-4 h ahead, New York's 9-10 h ahead.
    const local = wall(new Date(Date.now() + 5 * HOUR));
    const sent = await p.api.post(`/campaigns/${c.id}/send`, { scheduledFor: local, timezone: 'recipient', fallbackTimezone: 'Europe/Paris' }).expect(200);
    expect(sent.body.data.status).toBe('SENDING');
    const first = await until(p, c.id, (st) => st.waiting === 4 && st.nextBatchAt !== null);
    expect(first.c).toMatchObject({ status: 'SENDING', timezone: 'recipient', localScheduledFor: local, fallbackTimezone: 'Europe/Paris' });
    // Computed in SQL: the instant of Paris's wall time by PostgreSQL's zone rules, which the release schedule uses.
    const [{ paris }] = await s.db.query<{ paris: Date }>(`SELECT ($1::timestamp AT TIME ZONE 'Europe/Paris') AS paris`, [local]);
    expect(first.st.nextBatchAt).toBe(new Date(paris).toISOString());
    await settled(p, c.id, all, [1, 0, 0, 0, 0]);
    // The mover moves to a zone already released: it goes with the next walk, once.
    await p.api.post('/contacts', { email: mover, data: { timezone: 'Pacific/Kiritimati' } }).expect(200);
    // Four and a half hours pass (the wall time and the schedule's moment move back together): Paris is due.
    await move(c.id, `local_scheduled_for = to_char(local_scheduled_for::timestamp - interval '270 minutes', 'YYYY-MM-DD"T"HH24:MI:SS'), release_moment = release_moment - interval '270 minutes'`);
    await until(p, c.id, (st) => st.waiting === 1);
    const mid = await settled(p, c.id, all, [1, 1, 1, 1, 0]);
    expect(mid).toMatchObject({ waiting: 1 });
    expect((await get(p, c.id)).status).toBe('SENDING');
    // Six more hours: New York, the last zone, then SENT.
    await move(c.id, `local_scheduled_for = to_char(local_scheduled_for::timestamp - interval '6 hours', 'YYYY-MM-DD"T"HH24:MI:SS'), release_moment = release_moment - interval '6 hours'`);
    const done = await until(p, c.id, (st, k) => k.status === 'SENT');
    expect(done.st).toMatchObject({ waiting: 0, totalRecipients: 5 });
    expect(all.map(received)).toEqual([1, 1, 1, 1, 1]);
  });

  it('is SCHEDULED until the first zone moment; cancel while SCHEDULED sends nothing', async () => {
    const p = await s.newProject();
    await contacts(p, [['sched-a@release.example', { timezone: 'Asia/Tokyo' }], ['sched-b@release.example', { timezone: 'America/Los_Angeles' }]]);
    const c = await create(p);
    const local = '2030-06-01T09:00:00';
    const res = await p.api.post(`/campaigns/${c.id}/send`, { scheduledFor: local, timezone: 'recipient' }).expect(200);
    // Tokyo (UTC+9) comes first.
    expect(res.body.data).toMatchObject({ status: 'SCHEDULED', scheduledFor: '2030-06-01T00:00:00.000Z' });
    expect(await stats(p, c.id)).toMatchObject({ waiting: 0, nextBatchAt: null, totalRecipients: 0 });
    expect((await p.api.post(`/campaigns/${c.id}/cancel`).expect(200)).body.status).toBe('DRAFT');
    const again = await get(p, c.id);
    expect(again).toMatchObject({ timezone: null, localScheduledFor: null });
  });

  it('cancels a zone campaign mid-way: the unwritten rest counted once as cancelled', async () => {
    const p = await s.newProject();
    await contacts(p, [['cx-a@release.example', { timezone: 'Pacific/Kiritimati' }], ['cx-b@release.example', { timezone: 'America/New_York' }], ['cx-c@release.example']]);
    const c = await create(p);
    await p.api.post(`/campaigns/${c.id}/send`, { scheduledFor: wall(new Date(Date.now() + 5 * HOUR)), timezone: 'recipient' }).expect(200);
    await until(p, c.id, (st) => st.waiting === 2 && st.sentCount === 1);
    const cancelled = (await p.api.post(`/campaigns/${c.id}/cancel`).expect(200)).body;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', totalRecipients: 3 });
    expect((await stats(p, c.id)).skipped).toMatchObject({ cancelled: 2 });
  });
});
