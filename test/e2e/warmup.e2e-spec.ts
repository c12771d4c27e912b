import { ProjectSession, useSession, waitFor } from '../support/session';

/*
 * Domain warm-up through HTTP (docs/delivery-control.md, "Domain warm-up"). SQL mostly for
 * time: the UTC day is moved by SQL (the warm-up's start, the day counters and held emails'
 * not-before times go back a day), never by waiting for midnight; besides, held emails'
 * not-before times are read there and a stranded email is staged for the sweep.
 */
describe('domain warm-up', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off', EMAIL_SWEEP_INTERVAL_MS: '1000' });

  const addDomain = async (p: ProjectSession, domain: string): Promise<string> => (await p.api.post('/domains', { domain }).expect(201)).body.id;
  const warmup = async (p: ProjectSession, id: string) => (await p.api.get(`/domains/${id}`).expect(200)).body.warmup;
  /**
   * The next UTC day, for this domain: its start, its counters and its held emails move one day
   * back, in one transaction (an engine tick between the start's move and the counters' would see
   * day 1's cap against day 0's count and write into the day that is about to become yesterday).
   */
  const nextDay = async (domainId: string, domain: string) => {
    // Time travel in SQL: no endpoint moves the UTC day.
    await s.db.dataSource.transaction(async (em) => {
      await em.query(`UPDATE domains SET warmup_started_at = warmup_started_at - interval '1 day' WHERE id = $1`, [domainId]);
      await em.query(`UPDATE domain_send_counts SET day = day - 1 WHERE domain_id = $1`, [domainId]);
      await em.query(`UPDATE emails SET not_before = not_before - interval '1 day' WHERE not_before IS NOT NULL AND from_address LIKE $1`, [`%@${domain}`]);
    });
  };

  it('validates each warm-up field with a 422 naming it, and hides other projects’ domains', async () => {
    const id = await addDomain(s, 'rules.example');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'warmup'],
      [{ warmup: 'on' }, 'warmup'],
      [{ warmup: { enabled: 'yes' } }, 'warmup.enabled'],
      [{ warmup: { enabled: null } }, 'warmup.enabled'],
      [{ warmup: { startPerDay: 0 } }, 'warmup.startPerDay'],
      [{ warmup: { startPerDay: 2.5 } }, 'warmup.startPerDay'],
      [{ warmup: { growthPercent: 0 } }, 'warmup.growthPercent'],
      [{ warmup: { growthPercent: 101 } }, 'warmup.growthPercent'],
      [{ warmup: { maxPerDay: 'lots' } }, 'warmup.maxPerDay'],
      [{ warmup: { startPerDay: 100, maxPerDay: 99 } }, 'warmup.maxPerDay'],
    ];
    for (const [body, field] of cases) {
      const res = await s.api.patch(`/domains/${id}`, body);
      expect([res.status, res.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const two = await s.api.patch(`/domains/${id}`, { warmup: { startPerDay: -1, growthPercent: 'x' } }).expect(422);
    expect(two.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['warmup.growthPercent', 'warmup.startPerDay']);
    // Nothing of a refused body was written.
    expect(await warmup(s, id)).toMatchObject({ enabled: false, startPerDay: 50, growthPercent: 50, maxPerDay: null, day: null, capToday: null, sentToday: null, completeAt: null });

    const other = await s.newProject();
    await other.api.get(`/domains/${id}`).expect(404);
    await other.api.patch(`/domains/${id}`, { warmup: { enabled: true } }).expect(404);
    await s.api.get('/domains/not-a-uuid').expect(404);
    expect((await warmup(s, id)).enabled).toBe(false);
  });

  it('shows the day, the cap, the count, the schedule and when the warm-up completes', async () => {
    const id = await addDomain(s, 'schedule.example');
    const off = await warmup(s, id);
    // Off: a preview of the defaults from today.
    expect(off.schedule.slice(0, 4).map((d: { cap: number }) => d.cap)).toEqual([50, 75, 112, 168]);

    const on = (await s.api.patch(`/domains/${id}`, { warmup: { enabled: true, startPerDay: 50, growthPercent: 100, maxPerDay: 200 } }).expect(200)).body.warmup;
    const today = new Date().toISOString().slice(0, 10);
    expect(on).toMatchObject({ enabled: true, startPerDay: 50, growthPercent: 100, maxPerDay: 200, day: 0, capToday: 50, sentToday: 0 });
    expect(on.completeAt).toBe(new Date(Date.parse(`${today}T00:00:00.000Z`) + 2 * 86_400_000).toISOString());
    expect(on.schedule).toHaveLength(14);
    expect(on.schedule.slice(0, 4)).toEqual([
      { day: 0, date: today, cap: 50 },
      { day: 1, date: new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10), cap: 100 },
      { day: 2, date: new Date(Date.parse(today) + 2 * 86_400_000).toISOString().slice(0, 10), cap: 200 },
      { day: 3, date: new Date(Date.parse(today) + 3 * 86_400_000).toISOString().slice(0, 10), cap: 200 },
    ]);

    // Three days later, without a ceiling: 50 × 1.5³ = 168.75 → 168; the settings change, the start does not.
    // Time travel in SQL: no endpoint moves a warm-up's start.
    await s.db.query(`UPDATE domains SET warmup_started_at = warmup_started_at - interval '3 days' WHERE id = $1`, [id]);
    const later = (await s.api.patch(`/domains/${id}`, { warmup: { growthPercent: 50, maxPerDay: null } }).expect(200)).body.warmup;
    expect(later).toMatchObject({ day: 3, capToday: 168, completeAt: null });
    expect(later.schedule[0]).toMatchObject({ day: 3, cap: 168 });
    // The list shows the same.
    const listed = (await s.api.get(`/domains/project/${s.project.id}`).expect(200)).body.find((d: { id: string }) => d.id === id);
    expect(listed.warmup).toMatchObject({ day: 3, capToday: 168 });

    // Off clears the start: on again is day 0.
    await s.api.patch(`/domains/${id}`, { warmup: { enabled: false } }).expect(200);
    expect(await warmup(s, id)).toMatchObject({ enabled: false, day: null });
    expect((await s.api.patch(`/domains/${id}`, { warmup: { enabled: true } }).expect(200)).body.warmup).toMatchObject({ day: 0, capToday: 50 });
  });

  it('counts transactional mail and never holds it', async () => {
    const id = await addDomain(s, 'tx.example');
    await s.api.patch(`/domains/${id}`, { warmup: { enabled: true, startPerDay: 2 } }).expect(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await s.api.post('/v1/send', { to: [`tx${i}@example.org`, `tx${i}b@example.org`], subject: 'Receipt', body: '<p>Thanks</p>', from: 'billing@mail.tx.example' }).expect(200);
      ids.push(...res.body.data.emails.map((e: { email: string }) => e.email));
    }
    for (const emailId of ids) expect((await s.read.emailSettled(emailId)).status).toBe('delivered');
    expect(await warmup(s, id)).toMatchObject({ capToday: 2, sentToday: 6 });
  });

  it('writes no more of a campaign than the day allows; the rest goes out the next UTC day, once each', async () => {
    const p = await s.newProject();
    const id = await addDomain(p, 'news.example');
    await p.api.patch(`/domains/${id}`, { warmup: { enabled: true, startPerDay: 4, growthPercent: 50 } }).expect(200);
    const contacts = Array.from({ length: 10 }, (_, i) => `reader${i}@example.org`);
    for (const email of contacts) await p.api.post('/contacts', { email }).expect(201);
    const campaign = (await p.api.post('/campaigns', { name: 'Warm', subject: 'News', body: '<p>News</p>', from: 'hello@news.example', audienceType: 'ALL', type: 'MARKETING' }).expect(201)).body.data;
    await p.api.post(`/campaigns/${campaign.id}/send`).expect(200);

    const rowsOf = () => p.read.emails({ campaignId: campaign.id });
    const delivered = async (n: number) => waitFor(async () => ((await rowsOf()).filter((e) => e.status === 'delivered').length === n ? true : undefined), 20_000, 100);
    await delivered(4);
    // Held at the cap: still SENDING, nothing more written. A campaign from another domain, sent
    // after, goes out whole: the engine has been past the held one since.
    const other = (
      await p.api
        .post('/campaigns', {
          name: 'Cold',
          subject: 'Other',
          body: '<p>Other</p>',
          from: 'hello@cold.example',
          type: 'MARKETING',
          audienceType: 'FILTERED',
          audienceCondition: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'contains', value: 'reader0@' }] }] },
        })
        .expect(201)
    ).body.data;
    await p.api.post(`/campaigns/${other.id}/send`).expect(200);
    await waitFor(async () => ((await p.api.get(`/campaigns/${other.id}`).expect(200)).body.status === 'SENT' ? true : undefined), 20_000, 100);
    expect(await rowsOf()).toHaveLength(4);
    expect((await p.api.get(`/campaigns/${campaign.id}`).expect(200)).body.status).toBe('SENDING');
    expect(await warmup(p, id)).toMatchObject({ day: 0, capToday: 4, sentToday: 4 });
    // The stats say who waits and until when: the next UTC day.
    const tomorrow = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`).getTime() + 86_400_000;
    expect((await p.api.get(`/campaigns/${campaign.id}/stats`).expect(200)).body).toMatchObject({ waiting: 6, nextBatchAt: new Date(tomorrow).toISOString() });

    // Day 1 allows 4 × 1.5 = 6: the other 6 go out, and the campaign is SENT that day (its cap is full, but nothing is left).
    await nextDay(id, 'news.example');
    await delivered(10);
    const done = await waitFor(async () => {
      const c = (await p.api.get(`/campaigns/${campaign.id}`).expect(200)).body;
      return c.status === 'SENT' ? c : undefined;
    }, 20_000, 100);
    expect(await warmup(p, id)).toMatchObject({ day: 1, capToday: 6, sentToday: 6 });
    const rows = await rowsOf();
    expect(rows.map((r) => r.to).sort()).toEqual([...contacts].sort());
    expect(done).toMatchObject({ status: 'SENT', totalRecipients: 10, sentCount: 10 });
  });

  it('holds workflow mail past the cap to the next UTC day, then sends it exactly once', async () => {
    const id = await addDomain(s, 'flow.example');
    await s.api.patch(`/domains/${id}`, { warmup: { enabled: true, startPerDay: 1, growthPercent: 100 } }).expect(200);
    const tpl = (await s.api.post('/templates', { name: 'welcome', subject: 'Welcome', body: '<p>Hi</p>', from: 'hi@flow.example', type: 'TRANSACTIONAL' }).expect(201)).body.id;
    const wf = (await s.api.post('/workflows', { name: 'onboarding', eventName: 'flow.signup' }).expect(201)).body;
    const step = (await s.api.post(`/workflows/${wf.id}/steps`, { type: 'SEND_EMAIL', config: { templateId: tpl } }).expect(201)).body.id;
    await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: step }).expect(201);
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    for (const email of ['f1@example.org', 'f2@example.org', 'f3@example.org', 'f4@example.org']) await s.api.post('/v1/track', { email, event: 'flow.signup' }).expect(200);

    const all = await waitFor(async () => {
      // Read in SQL: a held email's not-before time, which no endpoint shows.
      const rows = await s.db.query<{ id: string; status: string; not_before: Date | null }>(`SELECT id, status, not_before FROM emails WHERE from_address = 'hi@flow.example' ORDER BY not_before NULLS FIRST`);
      return rows.length === 4 && rows.filter((r) => r.status === 'delivered').length === 1 ? rows : undefined;
    }, 20_000, 100);
    // Day 0 allows 1, day 1 allows 2, day 2 the last one: held `queued` with the start of its UTC day.
    const midnight = (days: number) => new Date(Date.parse(new Date().toISOString().slice(0, 10)) + days * 86_400_000).getTime();
    expect(all.map((r) => r.not_before && new Date(r.not_before).getTime())).toEqual([null, midnight(1), midnight(1), midnight(2)]);
    expect(all.slice(1).map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    // The executions went on (the email is theirs, waiting).
    const executions = (await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body;
    expect(executions.data.map((e: { status: string }) => e.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);
    // The sweep (every second here) does not send them early: it sends an email stranded without
    // a job from another domain, and still leaves them.
    // Fault staged in SQL: an email written without its job, 3 minutes ago (no endpoint does that).
    const [stranded] = await s.db.query<{ id: string }>(
      `INSERT INTO emails (project_id, contact_id, content_id, type, from_address, to_address, subject, variables, track_opens, track_clicks, created_at, updated_at)
       SELECT project_id, contact_id, content_id, type, 'hi@sweep.example', 'stranded@example.org', subject, variables, track_opens, track_clicks, now() - interval '3 minutes', now() - interval '3 minutes'
         FROM emails WHERE id = $1 RETURNING id`,
      [all[0].id],
    );
    await s.read.emailSettled(stranded.id, ['delivered']);
    expect((await s.read.email(all[1].id))!.status).toBe('queued');
    expect(await warmup(s, id)).toMatchObject({ sentToday: 1, capToday: 1 });

    await nextDay(id, 'flow.example');
    await s.read.emailSettled(all[1].id);
    await s.read.emailSettled(all[2].id);
    expect((await s.read.email(all[3].id))!.status).toBe('queued');
    expect(await warmup(s, id)).toMatchObject({ day: 1, sentToday: 2, capToday: 2 });
    await nextDay(id, 'flow.example');
    expect((await s.read.emailSettled(all[3].id)).status).toBe('delivered');
    const final = (await s.read.emails()).filter((e) => e.from === 'hi@flow.example');
    expect(final.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });
});
