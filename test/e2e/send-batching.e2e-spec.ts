import { SendEmails } from '../../src/modules/emails/use-cases/send-emails';
import { slowStatements } from '../support/app';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

type Stats = { batches: number; batchedItems: number; single: number; retries: number; fallbacks: number };

/**
 * Concurrent TRANSACTIONAL `/v1/send` requests share one transaction (SendEmails' batcher);
 * every request must still get its own contacts and emails, as if it ran alone.
 *
 * White-box: the batcher's statistics and a slowed StatementRunner (internals), emails' content
 * rows and render variables (internals: how requests share a batch), and a suppression (no
 * endpoint adds one). Contacts, their events and emails' statuses are read through the API.
 */
describe('send batching', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off', RATE_LIMIT_PER_MINUTE: '1000000' }), { projectName: 'A' });
  let projects: ProjectSession[];

  beforeAll(async () => {
    projects = [s, await s.newProject('B')];
    slowStatements(s.app);
  });

  const send = (p: ProjectSession, body: Record<string, unknown>) => p.api.post('/v1/send', body);
  const stats = (): Stats => (s.app.runtime.app.get(SendEmails) as unknown as { batcher: { stats: Stats } }).batcher.stats;
  const base = { from: 'hello@acme.test', body: '<p>Hi {{name ?? "there"}}</p>' };
  /** Messages received per email id (header X-Mailroom-Email-Id). */
  const deliveries = () => {
    const counts = new Map<string, number>();
    for (const m of smtp.messages) {
      const id = m.parsed?.headers.get('x-mailroom-email-id') as string | undefined;
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };

  it('gives every concurrent request its own contacts and emails, each delivered once', async () => {
    const before = { ...stats() };
    const received = smtp.count;
    type Call = { p: ProjectSession; to: string[]; subscribed?: boolean; n: number };
    const calls: Call[] = [];
    for (let n = 0; n < 60; n++) {
      const p = projects[n % 2];
      // Every fifth request names two contacts of its own, the shared contact and one of three shared "pair" contacts;
      // every third names the shared contact alone; the others a contact of their own.
      const to =
        n % 5 === 0
          ? [`own${n}a@example.com`, 'Shared@Example.com', `pair${n % 3}@example.com`, `own${n}b@example.com`]
          : n % 3 === 0
            ? ['shared@example.com']
            : [`solo${n}@example.com`];
      calls.push({ p, to, subscribed: n % 7 === 3 ? true : undefined, n });
    }
    const results = await Promise.all(
      calls.map((c) => send(c.p, { ...base, to: c.to, subject: `batch ${c.n}`, subscribed: c.subscribed, data: { [`r${c.n}`]: c.n, name: `N${c.n}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));
    const after = stats();
    expect(after.batches).toBeGreaterThan(before.batches);
    expect(after.batchedItems - before.batchedItems).toBeGreaterThan(after.batches - before.batches);

    const allIds: string[] = [];
    // Each project's emails and contacts as its own key sees them: an email or contact listed there is the project's.
    const listed = new Map(await Promise.all(projects.map(async (p) => [p.project.id, { emails: new Map((await p.read.emails()).map((e) => [e.id, e])), contacts: new Map((await p.read.contacts()).map((k) => [k.id, k])) }] as const)));
    for (const [k, c] of calls.entries()) {
      const body = results[k].body.data;
      expect(body.skipped).toEqual([]);
      // Recipient order kept; contacts are the project's contacts of these addresses.
      expect(body.emails.map((e: { contact: { email: string } }) => e.contact.email)).toEqual(c.to.map((t) => t.toLowerCase()));
      const ids = body.emails.map((e: { email: string }) => e.email);
      allIds.push(...ids);
      const own = listed.get(c.p.project.id)!;
      body.emails.forEach((e: { email: string; contact: { id: string; email: string } }) => {
        expect(own.emails.get(e.email)).toMatchObject({ contactId: e.contact.id, to: e.contact.email });
        expect(own.contacts.get(e.contact.id)).toMatchObject({ email: e.contact.email });
      });
      // Read in SQL: the content row an email shares (its subject as stored before rendering) and its render variables (no endpoint shows either).
      const rows: Array<{ id: string; content_id: string; subject: string; variables: Record<string, unknown> }> = await s.db.query(
        `SELECT e.id, e.content_id, ec.subject, e.variables FROM emails e JOIN email_contents ec ON ec.id = e.content_id WHERE e.id = ANY($1::uuid[])`,
        [ids],
      );
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) expect(row).toMatchObject({ subject: `batch ${c.n}`, variables: expect.objectContaining({ [`r${c.n}`]: c.n, name: `N${c.n}` }) });
      // One content row per request.
      expect(new Set(rows.map((r) => r.content_id)).size).toBe(1);
    }
    expect(new Set(allIds).size).toBe(allIds.length);

    // Each email delivered exactly once: every one arrived (counted by its own id, since other mail of
    // the session, such as a system email, may reach the receiver meanwhile), and none twice.
    await smtp.waitForCount(received + allIds.length);
    await waitFor(async () => (allIds.every((id) => deliveries().has(id)) ? true : undefined), 30_000).catch(() => undefined);
    const statuses: Array<{ n: number }> = await waitFor(async () => {
      const handedOver = (await Promise.all(projects.map((p) => p.read.emails()))).flat().filter((e) => allIds.includes(e.id) && ['sent', 'delivered'].includes(e.status));
      const rows = [{ n: handedOver.length }];
      return rows[0].n === allIds.length ? rows : undefined;
    }, 30_000);
    expect(statuses[0].n).toBe(allIds.length);
    // Every one recorded as handed over, and one more sent through the same path has arrived: a
    // second delivery of any of them would have arrived by then.
    const marker = (await send(s, { ...base, to: ['marker@example.com'], subject: 'marker' }).expect(200)).body.data.emails[0].email as string;
    await waitFor(async () => (deliveries().has(marker) ? true : undefined), 30_000);
    const counts = deliveries();
    expect(allIds.filter((id) => counts.get(id) !== 1).map((id) => ({ id, received: counts.get(id) ?? 0 }))).toEqual([]);

    // Contact state: one contact per address and project, holding every request's data.
    for (const p of projects) {
      const mine = calls.filter((c) => c.p === p);
      const addresses = [...new Set(mine.flatMap((c) => c.to.map((t) => t.toLowerCase())))];
      const contacts = (await p.read.contacts()).filter((c) => addresses.includes(c.email));
      expect(contacts.map((c) => c.email).sort()).toEqual([...addresses].sort());
      for (const contact of contacts) {
        const touching = mine.filter((c) => c.to.some((t) => t.toLowerCase() === contact.email));
        expect(Object.keys(contact.data).filter((k) => k.startsWith('r')).sort()).toEqual(touching.map((c) => `r${c.n}`).sort());
        // New contacts start unsubscribed; `subscribed: true` from any request leaves them subscribed (nobody sent false).
        expect(contact.subscribed).toBe(touching.some((c) => c.subscribed === true));
        const flips = (await p.read.eventsOf(contact.id)).filter((e) => e.name.startsWith('contact.')).map(({ name, data }) => ({ name, data }));
        expect(flips.length).toBeLessThanOrEqual(1);
        for (const flip of flips) expect(flip).toEqual({ name: 'contact.subscribed', data: { source: 'send' } });
      }
    }
  });

  it('fails only the request whose data the database cannot store (422); its batch mates succeed, nothing of it is written', async () => {
    const [p] = projects;
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = { ...stats() };
      const bad = 7;
      const n = 20;
      const emailsOf = (i: number) => (i % 4 === 0 ? [`nul${attempt}-${i}@example.com`, `nul${attempt}-${i}b@example.com`] : [`nul${attempt}-${i}@example.com`]);
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          send(p, { ...base, to: emailsOf(i), subject: `nul ${attempt} ${i}`, data: i === bad ? { a: 'nul\u0000' } : { a: `ok${i}` } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: n }, (_, i) => (i === bad ? 422 : 200)));
      expect(results[bad].body.error.errors.map((e: { field: string }) => e.field)).toContain('data');
      const contacts = (await p.read.contacts(`nul${attempt}-`)).filter((c) => c.email.startsWith(`nul${attempt}-`)).map(({ email, data }) => ({ email, data }));
      const expected = Array.from({ length: n }, (_, i) => i)
        .filter((i) => i !== bad)
        .flatMap((i) => emailsOf(i).map((email) => ({ email, data: { a: `ok${i}` } })));
      expect(contacts.sort((a, b) => a.email.localeCompare(b.email))).toEqual(expected.sort((a, b) => a.email.localeCompare(b.email)));
      // Read in SQL: the content rows (one per stored request, none for the refused one) no endpoint shows.
      const contents: Array<{ subject: string; emails: number }> = await s.db.query(
        `SELECT ec.subject, (SELECT count(*)::int FROM emails e WHERE e.content_id = ec.id) AS emails FROM email_contents ec WHERE ec.project_id = $1 AND ec.subject LIKE $2`,
        [p.project.id, `nul ${attempt} %`],
      );
      expect(contents.map((c) => c.subject).sort()).toEqual(
        Array.from({ length: n }, (_, i) => i)
          .filter((i) => i !== bad)
          .map((i) => `nul ${attempt} ${i}`)
          .sort(),
      );
      for (const c of contents) expect(c.emails).toBe(emailsOf(Number(c.subject.split(' ')[2])).length);
      const ids = results.filter((_, i) => i !== bad).flatMap((r) => r.body.data.emails.map((e: { email: string }) => e.email));
      const stored = (await p.read.emails()).filter((e) => ids.includes(e.id));
      expect(stored.length).toBe(ids.length);
      if (stats().fallbacks > before.fallbacks) return;
    }
    throw new Error('the unstorable request never shared a batch (no fallback ran)');
  });

  it('batches MARKETING sends too: per request, unsubscribed and suppressed recipients are skipped', async () => {
    const [, p] = projects;
    const template = await p.api.post('/templates', { name: 'News', subject: 'News', body: '<p>News</p>', type: 'MARKETING', from: 'news@acme.test' });
    expect(template.status).toBe(201);
    // Arranged in SQL: no endpoint adds a suppression (a bounce does, through the SNS webhook).
    await s.db.query(`INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, 'mkt-bounced@example.com', 'bounce', 'api')`, [p.project.id]);
    const before = { ...stats() };
    const calls = [
      ...Array.from({ length: 10 }, (_, i) => ({ to: `mkt${i}@example.com`, subscribed: i % 2 === 0 })),
      { to: 'mkt-bounced@example.com', subscribed: true },
      { to: ['mkt-both-in@example.com', 'mkt-both-out@example.com'], subscribed: false },
    ];
    const results = await Promise.all(calls.map((c) => send(p, { ...c, template: template.body.id })));
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));
    results.slice(0, 10).forEach((r, i) => {
      if (i % 2 === 0) expect(r.body.data).toMatchObject({ emails: [{ contact: { email: `mkt${i}@example.com` } }], skipped: [] });
      else expect(r.body.data).toMatchObject({ emails: [], skipped: [{ to: `mkt${i}@example.com`, reason: 'unsubscribed' }] });
    });
    expect(results[10].body.data).toMatchObject({ emails: [], skipped: [{ to: 'mkt-bounced@example.com', reason: 'suppressed' }] });
    expect(results[11].body.data.skipped).toEqual([
      { to: 'mkt-both-in@example.com', reason: 'unsubscribed' },
      { to: 'mkt-both-out@example.com', reason: 'unsubscribed' },
    ]);
    // Skipped recipients got no email row, but their contacts were written.
    const rows = (await p.read.emails()).filter((e) => e.to.startsWith('mkt'));
    expect(rows.map((r) => r.to).sort()).toEqual([0, 2, 4, 6, 8].map((i) => `mkt${i}@example.com`));
    expect((await p.read.contacts('mkt')).filter((c) => c.email.startsWith('mkt'))).toHaveLength(13);
    expect(stats().batchedItems - before.batchedItems).toBeGreaterThan(1);
  });
});
