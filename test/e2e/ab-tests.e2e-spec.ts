import { ProjectSession, SETTLED_EMAIL_STATUSES, useFixture, useSession, waitFor } from '../support/session';
import { pathOf } from '../support/deliverability';
import { SmtpReceiver } from '../support/smtp-receiver';

/*
 * A/B tests (docs/delivery-control.md#ab-tests) through HTTP: validation, the split, the wait, the
 * winner by clicks (automatic, after moving `ab_wait_until` into the past by SQL, the house's
 * time travel) or by hand, and a cancel during the wait. Clicks go through the tracking routes.
 */
describe('A/B tests', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off', PUBLIC_URL: 'https://mail.example.test' }));
  const abBody = (abTest: Record<string, unknown> | null, over: Record<string, unknown> = {}) => ({
    name: 'Subjects',
    subject: 'Subject A',
    body: '<p>Hi, <a href="https://example.com/read">read</a></p>',
    from: 'news@example.com',
    audienceType: 'ALL',
    abTest,
    ...over,
  });
  const AB = { variants: [{ subject: 'Subject B' }], testPercent: 20, metric: 'clicks', waitMinutes: 60 };
  const seed = async (p: ProjectSession, prefix: string, n: number) => {
    for (let i = 0; i < n; i++) await p.api.post('/contacts', { email: `${prefix}${String(i).padStart(2, '0')}@example.com`, subscribed: true }).expect(201);
  };
  const to = (prefix: string) => smtp.messages.filter((m) => m.envelope.to.some((a: string) => a.startsWith(prefix)));
  const stats = async (p: ProjectSession, id: string) => (await p.api.get(`/campaigns/${id}/stats`).expect(200)).body;
  const untilPhase = (p: ProjectSession, id: string, phase: string) => waitFor(async () => ((await stats(p, id)).abTest?.phase === phase ? true : undefined), 30_000, 100);
  const untilStatus = (p: ProjectSession, id: string, status: string) =>
    waitFor(async () => ((await p.api.get(`/campaigns/${id}`).expect(200)).body.status === status ? true : undefined), 30_000, 100);
  /** The campaign's emails once none is left to send (every one settled). */
  const settled = (p: ProjectSession, id: string) =>
    waitFor(async () => {
      const emails = await p.read.emails({ campaignId: id });
      return emails.every((e) => SETTLED_EMAIL_STATUSES.includes(e.status)) ? emails : undefined;
    }, 30_000, 100);
  /** Time travel in SQL: no endpoint ends an A/B test's wait (picking a winner by hand is another path). */
  const waitOver = (ids: string[]) => s.db.query(`UPDATE campaigns SET ab_wait_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids]);
  /** Every contact of the prefix got exactly one message, and the subjects they got, counted. */
  const delivered = async (prefix: string, n: number) => {
    await waitFor(async () => (to(prefix).length >= n ? true : undefined), 30_000, 100);
    const per = new Map<string, number>();
    for (const m of to(prefix)) for (const a of m.envelope.to as string[]) per.set(a, (per.get(a) ?? 0) + 1);
    expect(per.size).toBe(n);
    expect([...per.values()].every((k) => k === 1)).toBe(true);
    const subjects: Record<string, number> = {};
    for (const m of to(prefix)) subjects[m.parsed!.subject as string] = (subjects[m.parsed!.subject as string] ?? 0) + 1;
    return subjects;
  };

  it('names each bad field in a 422 and stores the test with its defaults', async () => {
    const p = s;
    const fields = async (abTest: Record<string, unknown>) =>
      ((await p.api.post('/campaigns', abBody(abTest)).expect(422)).body.error.errors as Array<{ field: string }>).map((e) => e.field);
    expect(await fields({ variants: [], waitMinutes: 60 })).toEqual(['abTest.variants']);
    expect(await fields({ variants: Array(5).fill({ subject: 'x' }), waitMinutes: 60 })).toEqual(['abTest.variants']);
    expect(await fields({ variants: [{ subject: 'x' }], testPercent: 4, waitMinutes: 60 })).toEqual(['abTest.testPercent']);
    expect(await fields({ variants: [{ subject: 'x' }], testPercent: 51, waitMinutes: 60 })).toEqual(['abTest.testPercent']);
    expect(await fields({ variants: [{ subject: 'x' }], waitMinutes: 29 })).toEqual(['abTest.waitMinutes']);
    expect(await fields({ variants: [{ subject: 'x' }], waitMinutes: 10_081 })).toEqual(['abTest.waitMinutes']);
    expect(await fields({ variants: [{ subject: 'x' }], metric: 'replies', waitMinutes: 60 })).toEqual(['abTest.metric']);
    expect(await fields({ variants: [{ subject: '' }], waitMinutes: 60 })).toEqual(['abTest.variants[0].subject']);
    expect(await fields({ variants: [{ subject: 'x', body: '{% if a %}' }], waitMinutes: 60 })).toEqual(['abTest.variants[0].body']);
    expect((await p.api.get('/campaigns', { search: 'Subjects' }).expect(200)).body.total).toBe(0);
    const created = (await p.api.post('/campaigns', abBody({ variants: [{ subject: 'B' }], waitMinutes: 30 })).expect(201)).body.data;
    expect(created.abTest).toEqual({ variants: [{ subject: 'B', body: null, fromName: null }], testPercent: 20, metric: 'opens', waitMinutes: 30 });
    expect((await stats(p, created.id)).abTest).toBeNull();
    // No winner to pick before sending, nor on a plain campaign; a letter it does not have is 422.
    await p.api.post(`/campaigns/${created.id}/ab/winner`, { variant: 'B' }).expect(409);
    await p.api.post(`/campaigns/${created.id}/ab/winner`, { variant: 'C' }).expect(422);
    await p.api.post(`/campaigns/${created.id}/ab/winner`, { variant: 'z' }).expect(422);
    const plain = (await p.api.post('/campaigns', abBody(null)).expect(201)).body.data;
    expect(plain.abTest).toBeNull();
    await p.api.post(`/campaigns/${plain.id}/ab/winner`, { variant: 'A' }).expect(409);
    // Another project's campaign is not found.
    const q = await s.newProject();
    await q.api.post(`/campaigns/${created.id}/ab/winner`, { variant: 'B' }).expect(404);
  });

  it('sends the test share split among the variants, waits, picks the variant with the best click rate and sends the rest the winner', async () => {
    const p = await s.newProject();
    await seed(p, 'auto', 30);
    const id = (await p.api.post('/campaigns', abBody(AB)).expect(201)).body.data.id as string;
    // Variants are compared sent at one time: not in the recipients' time zones.
    const tz = await p.api.post(`/campaigns/${id}/send`, { scheduledFor: '2030-12-01T09:00:00', timezone: 'recipient' }).expect(422);
    expect(tz.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['timezone']);
    await p.api.post(`/campaigns/${id}/send`, {}).expect(200);
    await untilPhase(p, id, 'waiting');
    // A SENDING campaign's settings cannot change.
    await p.api.put(`/campaigns/${id}`, abBody({ ...AB, testPercent: 50 })).expect(409);
    const test = await stats(p, id);
    const [a, b] = test.abTest.variants;
    expect(a).toMatchObject({ variant: 'A', subject: 'Subject A' });
    expect(b).toMatchObject({ variant: 'B', subject: 'Subject B' });
    expect(a.recipients).toBeGreaterThanOrEqual(1);
    expect(b.recipients).toBeGreaterThanOrEqual(1);
    expect(test.abTest).toMatchObject({ winner: null, decidedAt: null });
    const sentInTest = a.recipients + b.recipients;
    expect(sentInTest).toBeLessThan(30);
    const subjects = await delivered('auto', sentInTest);
    expect(subjects).toEqual({ 'Subject A': a.recipients, 'Subject B': b.recipients });
    // Nothing more leaves during the wait: the test share is all the campaign wrote, and all of it is sent.
    expect(await settled(p, id)).toHaveLength(sentInTest);
    expect(to('auto').length).toBe(sentInTest);
    // One recipient of B clicks.
    const message = to('auto').find((m) => m.parsed!.subject === 'Subject B')!;
    const link = /href="([^"]*\/t\/c\/[^"]+)"/.exec(message.parsed!.html as string)![1];
    await s.anonymous.get(pathOf(link)).expect(302);
    await waitFor(async () => ((await stats(p, id)).abTest.variants[1].clicked === 1 ? true : undefined), 10_000, 100);
    // The wait is over (moved by SQL): the engine decides B and sends it to the rest.
    await waitOver([id]);
    await untilStatus(p, id, 'SENT');
    expect(await delivered('auto', 30)).toEqual({ 'Subject A': a.recipients, 'Subject B': 30 - a.recipients });
    const final = await stats(p, id);
    expect(final.abTest).toMatchObject({ phase: 'winner', winner: 'B' });
    expect(final.abTest.decidedAt).toEqual(expect.any(String));
    expect(final.abTest.variants[1]).toMatchObject({ recipients: 30 - a.recipients, clicked: 1 });
    expect(final).toMatchObject({ totalRecipients: 30, sentCount: 30 });
    await p.api.post(`/campaigns/${id}/ab/winner`, { variant: 'A' }).expect(409);
  });

  it('gives each variant one contact of a tiny audience, and a winner picked by hand goes to the rest at once', async () => {
    const p = await s.newProject();
    await seed(p, 'tiny', 6);
    const ab = { variants: [{ subject: 'Subject B' }, { subject: 'Subject C', body: '<p>C body</p>', fromName: 'Team C' }], testPercent: 5, metric: 'opens', waitMinutes: 10_080 };
    const id = (await p.api.post('/campaigns', abBody(ab)).expect(201)).body.data.id as string;
    await p.api.post(`/campaigns/${id}/send`, {}).expect(200);
    await untilPhase(p, id, 'waiting');
    const test = (await stats(p, id)).abTest;
    expect(test.variants.map((v: { recipients: number }) => v.recipients >= 1)).toEqual([true, true, true]);
    const inTest = test.variants.reduce((n: number, v: { recipients: number }) => n + (v.recipients as number), 0);
    await delivered('tiny', inTest);
    const picked = (await p.api.post(`/campaigns/${id}/ab/winner`, { variant: 'C' }).expect(200)).body;
    expect(picked.status).toBe('SENDING');
    await untilStatus(p, id, 'SENT');
    const subjects = await delivered('tiny', 6);
    expect(subjects['Subject C']).toBe(6 - test.variants[0].recipients - test.variants[1].recipients);
    const c = to('tiny').find((m) => m.parsed!.subject === 'Subject C')!;
    expect(c.parsed!.html).toContain('C body');
    expect(c.parsed!.from!.value[0].name).toBe('Team C');
    expect((await stats(p, id)).abTest).toMatchObject({ phase: 'winner', winner: 'C' });
  });

  it('sends exactly round(testPercent% × audience) of the audience as the test, split evenly, and the rest exactly the complement', async () => {
    const cases = [
      { n: 40, testPercent: 50, variants: 1, sizes: [10, 10] },
      { n: 41, testPercent: 20, variants: 2, sizes: [3, 3, 2] },
      { n: 7, testPercent: 50, variants: 1, sizes: [2, 2] },
      { n: 13, testPercent: 25, variants: 3, sizes: [1, 1, 1, 1] },
    ];
    for (const [k, c] of cases.entries()) {
      const p = await s.newProject();
      const prefix = `even${k}-`;
      await seed(p, prefix, c.n);
      const ab = { variants: Array.from({ length: c.variants }, (_, i) => ({ subject: `Subject ${String.fromCharCode(66 + i)}` })), testPercent: c.testPercent, metric: 'opens', waitMinutes: 60 };
      const id = (await p.api.post('/campaigns', abBody(ab)).expect(201)).body.data.id as string;
      await p.api.post(`/campaigns/${id}/send`, {}).expect(200);
      await untilPhase(p, id, 'waiting');
      const test = (await stats(p, id)).abTest.variants.map((v: { recipients: number }) => v.recipients);
      expect({ n: c.n, testPercent: c.testPercent, split: test }).toEqual({ n: c.n, testPercent: c.testPercent, split: c.sizes });
      const share = c.sizes.reduce((a, b) => a + b, 0);
      await delivered(prefix, share);
      await p.api.post(`/campaigns/${id}/ab/winner`, { variant: 'A' }).expect(200);
      await untilStatus(p, id, 'SENT');
      const subjects = await delivered(prefix, c.n);
      expect(subjects['Subject A']).toBe(c.n - share + c.sizes[0]);
      expect((await stats(p, id)).abTest.variants.map((v: { recipients: number }) => v.recipients)).toEqual([c.n - share + c.sizes[0], ...c.sizes.slice(1)]);
    }
  });

  it('cancelled during the wait, sends nothing more and counts the rest as cancelled', async () => {
    const p = await s.newProject();
    await seed(p, 'stop', 20);
    const id = (await p.api.post('/campaigns', abBody({ ...AB, testPercent: 25 })).expect(201)).body.data.id as string;
    await p.api.post(`/campaigns/${id}/send`, {}).expect(200);
    await untilPhase(p, id, 'waiting');
    const inTest = (await stats(p, id)).abTest.variants.reduce((n: number, v: { recipients: number }) => n + (v.recipients as number), 0);
    await delivered('stop', inTest);
    // A second test, left running, whose wait ends with the cancelled one's: once the engine has sent
    // it to the rest, it has been past the cancelled one's wait too.
    const other = await s.newProject();
    await seed(other, 'goes', 4);
    const control = (await other.api.post('/campaigns', abBody({ ...AB, testPercent: 50 })).expect(201)).body.data.id as string;
    await other.api.post(`/campaigns/${control}/send`, {}).expect(200);
    await untilPhase(other, control, 'waiting');
    expect((await p.api.post(`/campaigns/${id}/cancel`).expect(200)).body.status).toBe('CANCELLED');
    await waitOver([id, control]);
    await untilStatus(other, control, 'SENT');
    await delivered('goes', 4);
    expect(to('stop').length).toBe(inTest);
    const after = await stats(p, id);
    expect(after).toMatchObject({ totalRecipients: 20, skipped: { cancelled: 20 - inTest } });
    await p.api.post(`/campaigns/${id}/ab/winner`, { variant: 'B' }).expect(409);
  });
});
