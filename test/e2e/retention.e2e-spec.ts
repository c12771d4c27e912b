import { randomUUID } from 'node:crypto';
import { RetentionPrune } from '../../src/modules/projects';
import { ProjectSession, TestUser, useSession, waitFor } from '../support/session';

/**
 * Retention (docs/retention.md) through HTTP: the project setting (defaults, PATCH of some keys,
 * 422s naming the field, roles, other projects, the audit entry), email content expiring at read
 * time and then pruned in the background (the email row, subject and metadata stay; content a
 * kept email or a campaign holds stays), received mail past `inboundDays`, and the storage view.
 */
const DAY = 86_400_000;

interface Retention {
  eventsDays: number | null;
  emailContentDays: number | null;
  emailsDays: number | null;
  inboundDays: number | null;
}

describe('retention', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off' });
  const projectUrl = () => `/users/@me/projects/${s.project.id}`;
  const retentionOf = async (): Promise<Retention> => (await s.dashboard.get(projectUrl()).expect(200)).body.retention as Retention;
  const fieldsOf = (res: { body: { error: { errors?: Array<{ field: string }> } } }) => (res.body.error.errors ?? []).map((e) => e.field);
  /** Time travel in SQL: the API cannot age an email or a received message. */
  const age = (table: 'emails' | 'inbound_messages', column: string, ids: string[], days: number) =>
    s.db.query(`UPDATE ${table} SET ${column} = now() - $2::int * interval '1 day' WHERE id = ANY($1::uuid[])`, [ids, days]);
  const prune = () => s.app.runtime.app.get(RetentionPrune).runNow();

  describe('the setting', () => {
    let member: TestUser;
    let stranger: ProjectSession;

    beforeAll(async () => {
      member = await s.newUser();
      await s.dashboard.post(`/projects/${s.project.id}/members`, { email: member.email, role: 'MEMBER' }).expect(201);
      stranger = await s.newProject('Stranger');
    });

    it('starts at the defaults: events and emails kept, content and received mail 30 days', async () => {
      expect(await retentionOf()).toEqual({ eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 });
    });

    it('changes only the keys given, null keeping that data for good, and GET shows it', async () => {
      const res = await s.dashboard.patch(projectUrl(), { retention: { eventsDays: 400 } }).expect(200);
      expect(res.body.retention).toEqual({ eventsDays: 400, emailContentDays: 30, emailsDays: null, inboundDays: 30 });
      await s.dashboard.patch(projectUrl(), { retention: { emailsDays: 3650, inboundDays: null } }).expect(200);
      expect(await retentionOf()).toEqual({ eventsDays: 400, emailContentDays: 30, emailsDays: 3650, inboundDays: null });
      await s.dashboard.patch(projectUrl(), { retention: { eventsDays: null, emailsDays: null, inboundDays: 30 } }).expect(200);
      expect(await retentionOf()).toEqual({ eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 });
    });

    it.each([
      ['0', { eventsDays: 0 }, 'retention.eventsDays'],
      ['3651', { emailContentDays: 3651 }, 'retention.emailContentDays'],
      ['1.5', { emailsDays: 1.5 }, 'retention.emailsDays'],
      ['"10"', { inboundDays: '10' }, 'retention.inboundDays'],
      ['a negative', { eventsDays: -1 }, 'retention.eventsDays'],
      ['an unknown key', { eventDays: 10 }, 'retention'],
      ['a non-object', 'forever', 'retention'],
    ])('answers %s with 422 naming the field, and changes nothing', async (_label, retention, field) => {
      const before = await retentionOf();
      const res = await s.dashboard.patch(projectUrl(), { name: 'Renamed?', retention }).expect(422);
      expect(fieldsOf(res)).toEqual([field]);
      expect(await retentionOf()).toEqual(before);
      expect((await s.dashboard.get(projectUrl()).expect(200)).body.name).not.toBe('Renamed?');
    });

    it('is for OWNER and ADMIN: a MEMBER reads it but a change is 403', async () => {
      const res = await member.dashboard.patch(projectUrl(), { retention: { eventsDays: 5 } }).expect(403);
      expect(res.body.error.code).toBeDefined();
      expect((await member.dashboard.get(projectUrl()).expect(200)).body.retention.eventsDays).toBeNull();
      await member.dashboard.get(`${projectUrl()}/storage`).expect(200);
    });

    it("is 404 on another project's id, for the setting and the storage view", async () => {
      await stranger.dashboard.patch(projectUrl(), { retention: { eventsDays: 5 } }).expect(404);
      await stranger.dashboard.get(`${projectUrl()}/storage`).expect(404);
      await s.dashboard.get(`/users/@me/projects/${randomUUID()}/storage`).expect(404);
      await s.dashboard.get(`/users/@me/projects/not-a-uuid/storage`).expect(404);
      expect((await retentionOf()).eventsDays).toBeNull();
    });

    it('is audited as project.settings_updated with changes ["retention"]', async () => {
      await s.dashboard.patch(projectUrl(), { retention: { emailsDays: 700 } }).expect(200);
      const entries = (await s.api.get('/audit-log', { action: 'project.settings_updated', limit: 1 }).expect(200)).body.data as Array<{ changes: string[]; target: { id: string } }>;
      expect(entries[0]).toMatchObject({ changes: ['retention'], target: { id: s.project.id } });
      await s.dashboard.patch(projectUrl(), { retention: { emailsDays: null } }).expect(200);
    });
  });

  describe('email content', () => {
    let old: string;
    let keptTwin: string;
    let fresh: string;
    let lone: string;
    let campaignEmail: string;
    let campaignContent: string;

    beforeAll(async () => {
      const sendTo = async (to: string[], subject: string) =>
        ((await s.api.post('/v1/send', { to, from: 'hello@example.com', subject, body: '<p>Hi {{name ?? "there"}}</p>', headers: { 'X-Order': '42' }, data: { plan: 'pro' } }).expect(200)).body.data.emails as Array<{ email: string }>).map(
          (e) => e.email,
        );
      // One request's two emails share a content row: one is aged, the other is kept.
      [old, keptTwin] = await sendTo(['old@example.com', 'twin@example.com'], 'Old news');
      [fresh] = await sendTo(['fresh@example.com'], 'Fresh news');
      [lone] = await sendTo(['lone@example.com'], 'Lone news');
      await s.api.post('/contacts', { email: 'reader@example.com', subscribed: true }).expect(201);
      const campaign = (await s.api.post('/campaigns', { name: 'Digest', subject: 'Digest', body: '<p>Digest</p>', from: 'news@example.com', audienceType: 'ALL' }).expect(201)).body.data.id as string;
      await s.api.post(`/campaigns/${campaign}/send`, {}).expect(200);
      // The contacts /v1/send made are unsubscribed: the campaign skips them and sends to the reader.
      campaignEmail = (await waitFor(async () => (await s.read.emails({ campaignId: campaign })).find((e) => e.to === 'reader@example.com')))!.id;
      await s.read.emailSettled(campaignEmail);
      for (const id of [old, keptTwin, fresh, lone]) await s.read.emailSettled(id);
      // Read in SQL: no API names the content row a campaign holds.
      [{ content_id: campaignContent }] = await s.db.query<{ content_id: string }>(`SELECT content_id FROM campaigns WHERE id = $1`, [campaign]);
      await age('emails', 'created_at', [old, campaignEmail], 31);
      await age('emails', 'created_at', [lone], 45);
    });

    it('is shown while kept', async () => {
      const email = (await s.api.get(`/v1/emails/${fresh}`).expect(200)).body;
      expect(email.contentExpiredAt).toBeNull();
      expect(email.content).toMatchObject({ subject: 'Fresh news', body: '<p>Hi {{name ?? "there"}}</p>', headers: { 'X-Order': '42' } });
      expect(email.content.variables).toMatchObject({ plan: 'pro' });
    });

    it('is gone at once past emailContentDays, before any pruning: content null, contentExpiredAt when it expired', async () => {
      const email = (await s.api.get(`/v1/emails/${old}`).expect(200)).body;
      expect(email.content).toBeNull();
      expect(Date.parse(email.contentExpiredAt)).toBe(Date.parse(email.createdAt) + 30 * DAY);
      expect(email).toMatchObject({ subject: 'Old news', to: 'old@example.com', status: 'delivered' });
      // A contact's export answers it the same way.
      const exported = (await s.api.get(`/contacts/${email.contactId}/export`).expect(200)).body as { emails: Array<{ id: string; content: unknown; contentExpiredAt: string | null }> };
      expect(exported.emails.find((e) => e.id === old)).toMatchObject({ content: null, contentExpiredAt: email.contentExpiredAt });
      // Read in SQL: still in the database, only the read decided.
      const [row] = await s.db.query<{ content_id: string | null }>(`SELECT content_id FROM emails WHERE id = $1`, [old]);
      expect(row.content_id).not.toBeNull();
    });

    it('follows the setting at once: longer brings it back, null keeps it for good', async () => {
      await s.dashboard.patch(projectUrl(), { retention: { emailContentDays: 60 } }).expect(200);
      expect((await s.api.get(`/v1/emails/${old}`).expect(200)).body.content).not.toBeNull();
      await s.dashboard.patch(projectUrl(), { retention: { emailContentDays: null } }).expect(200);
      expect((await s.api.get(`/v1/emails/${old}`).expect(200)).body.contentExpiredAt).toBeNull();
      await s.dashboard.patch(projectUrl(), { retention: { emailContentDays: 30 } }).expect(200);
    });

    it('is deleted by the pruner: the email row, subject and metadata stay; content a kept email or the campaign holds stays', async () => {
      // Read in SQL: no API shows content rows, or what the pruner left of them.
      const [{ content_id: shared }] = await s.db.query<{ content_id: string }>(`SELECT content_id FROM emails WHERE id = $1`, [old]);
      const [{ content_id: own }] = await s.db.query<{ content_id: string }>(`SELECT content_id FROM emails WHERE id = $1`, [lone]);
      await prune();
      const rows = await s.db.query<{ id: string; content_id: string | null; variables: unknown; subject: string; to_address: string; status: string }>(
        `SELECT id, content_id, variables, subject, to_address, status FROM emails WHERE id = ANY($1::uuid[])`,
        [[old, keptTwin, fresh, campaignEmail]],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(old)).toMatchObject({ content_id: null, variables: null, subject: 'Old news', to_address: 'old@example.com', status: 'delivered' });
      expect(byId.get(campaignEmail)).toMatchObject({ content_id: null, variables: null, subject: 'Digest' });
      expect(byId.get(keptTwin)!.content_id).toBe(shared);
      expect(byId.get(fresh)!.content_id).not.toBeNull();
      // Read in SQL: the request's row stays for its kept email; the campaign's stays with the campaign.
      const contents = await s.db.query<{ id: string }>(`SELECT id FROM email_contents WHERE id = ANY($1::uuid[])`, [[shared, campaignContent]]);
      expect(contents.map((c) => c.id).sort()).toEqual([shared, campaignContent].sort());
      expect((await s.api.get(`/v1/emails/${keptTwin}`).expect(200)).body.content).toMatchObject({ subject: 'Old news' });
      const gone = (await s.api.get(`/v1/emails/${old}`).expect(200)).body;
      expect(gone).toMatchObject({ content: null, subject: 'Old news', status: 'delivered' });
      expect(gone.events.length).toBeGreaterThan(0);
      // Read in SQL: a request's content row goes once no kept email holds it.
      expect(await s.db.query(`SELECT id FROM email_contents WHERE id = $1`, [own])).toEqual([]);
      expect((await s.api.get(`/v1/emails/${lone}`).expect(200)).body).toMatchObject({ content: null, subject: 'Lone news' });
    });
  });

  describe('received mail', () => {
    const insertInbound = async (projectId: string, days: number): Promise<string> => {
      const id = randomUUID();
      // Arranged in SQL: received mail comes over SMTP; these rows are received long ago.
      await s.db.query(
        `INSERT INTO inbound_messages (id, project_id, storage_key, size, recipients, subject, spf, dkim, dmarc, received_at)
         VALUES ($1, $2, $3, 10, ARRAY['support@acme.test'], 'Help', 'none', 'none', 'none', now() - $4::int * interval '1 day')`,
        [id, projectId, `${id}.eml`, days],
      );
      return id;
    };

    it("is deleted past inboundDays, each project by its own setting", async () => {
      const keeper = await s.newProject('Keeps mail');
      await keeper.dashboard.patch(`/users/@me/projects/${keeper.project.id}`, { retention: { inboundDays: null } }).expect(200);
      const week = await s.newProject('Keeps a week');
      await week.dashboard.patch(`/users/@me/projects/${week.project.id}`, { retention: { inboundDays: 7 } }).expect(200);
      const past = await insertInbound(s.project.id, 31);
      const recent = await insertInbound(s.project.id, 5);
      const kept = await insertInbound(keeper.project.id, 400);
      const weekOld = await insertInbound(week.project.id, 8);
      await s.api.get(`/inbound/${past}`).expect(200);
      await prune();
      await s.api.get(`/inbound/${past}`).expect(404);
      await s.api.get(`/inbound/${recent}`).expect(200);
      await keeper.api.get(`/inbound/${kept}`).expect(200);
      await week.api.get(`/inbound/${weekOld}`).expect(404);
    });
  });

  describe('events and emails', () => {
    /** A past month's partition, made as the migration makes them (rows aged into a month nobody made would wait in the default partition). */
    const monthOf = async (daysAgo: number) => {
      // Arranged in SQL: no API makes a past month's partition or ages rows into it.
      const [{ month }] = await s.db.query(`SELECT to_char(date_trunc('month', (now() - $1::int * interval '1 day') AT TIME ZONE 'UTC'), 'YYYYMM') AS month`, [daysAgo]);
      for (const table of ['events', 'emails', 'email_contents']) {
        await s.db.query(`SELECT history_partition_ensure($1, to_date($2, 'YYYYMM'))`, [table, month]);
      }
      return month as string;
    };
    // Read in SQL: whether a month's partition exists is the database's own catalogue.
    const partitionExists = async (name: string) => ((await s.db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [name])) as Array<{ present: boolean }>)[0].present;
    const ageProjectRows = (table: 'events' | 'emails', projectId: string, ids: string[] | null, days: number) =>
      s.db.query(`UPDATE ${table} SET created_at = now() - $3::int * interval '1 day' WHERE project_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))`, [projectId, ids, days]);
    const analytics = async (p: ProjectSession) => {
      const answers: Record<string, unknown> = {};
      for (const path of ['/activity/stats', '/analytics/timeseries', '/analytics/timeseries?interval=hour', '/analytics/top-events', '/analytics/top-campaigns']) {
        answers[path] = (await p.api.get(path).expect(200)).body;
      }
      return answers;
    };
    const send = async (p: ProjectSession, to: string) =>
      (await p.api.post('/v1/send', { to, from: 'hello@example.com', subject: 'Hi', body: '<p>Hi</p>' }).expect(200)).body.data.emails[0].email as string;

    it('go past eventsDays and emailsDays: a month no owner keeps is dropped whole, the rest in batches; every analytics answer stays as it was', async () => {
      const pruned = await s.newProject('Prunes after 30 days');
      await pruned.dashboard.patch(`/users/@me/projects/${pruned.project.id}`, { retention: { eventsDays: 30, emailsDays: 30 } }).expect(200);
      const keeper = await s.newProject('Keeps everything');
      for (const p of [pruned, keeper]) {
        for (let i = 0; i < 3; i++) await p.api.post('/v1/track', { email: `old${i}@example.com`, event: 'signed-up' }).expect(200);
      }
      const oldEmail = await send(pruned, 'old0@example.com');
      const middleEmail = await send(pruned, 'old1@example.com');
      const keptEmail = await send(keeper, 'old0@example.com');
      await waitFor(async () => ((await pruned.read.emailCount({ status: 'sent' })) + (await pruned.read.emailCount({ status: 'delivered' })) === 2 ? true : undefined), 30_000);
      await waitFor(async () => ((await keeper.read.emailCount({ status: 'sent' })) + (await keeper.read.emailCount({ status: 'delivered' })) === 1 ? true : undefined), 30_000);
      const oldMonth = await monthOf(200);
      const middleMonth = await monthOf(100);
      // Far back: only the pruned project's rows. Less far: both projects' rows, so the month stays.
      // Arranged in SQL: a request's content row is of its emails' month (written together), and a
      // campaign's content (an audience's) of that month too, which outlives the month.
      await s.db.query(`UPDATE email_contents SET created_at = now() - interval '200 days' WHERE id = (SELECT content_id FROM emails WHERE id = $1)`, [oldEmail]);
      const [{ id: audienceContent }] = await s.db.query(
        `INSERT INTO email_contents (project_id, subject, body, audience, created_at) VALUES ($1, 'Campaign', '<p>Hi</p>', true, now() - interval '200 days') RETURNING id`,
        [pruned.project.id],
      );
      await ageProjectRows('events', pruned.project.id, null, 200);
      await ageProjectRows('emails', pruned.project.id, [oldEmail], 200);
      await ageProjectRows('emails', pruned.project.id, [middleEmail], 100);
      await ageProjectRows('events', keeper.project.id, null, 100);
      await ageProjectRows('emails', keeper.project.id, [keptEmail], 100);
      // Recent rows of the pruned project stay.
      await pruned.api.post('/v1/track', { email: 'new@example.com', event: 'signed-up' }).expect(200);
      const recentEmail = await send(pruned, 'new@example.com');
      await waitFor(async () => ((await pruned.read.emailCount({ status: 'sent' })) + (await pruned.read.emailCount({ status: 'delivered' })) === 3 ? true : undefined), 30_000);
      expect(await partitionExists(`events_p${oldMonth}`)).toBe(true);

      const before = { pruned: await analytics(pruned), keeper: await analytics(keeper) };
      const keeperEvents = (await keeper.api.get('/events').expect(200)).body;
      await prune();

      // The far month held only rows its owner let go: dropped whole, both tables.
      expect(await partitionExists(`events_p${oldMonth}`)).toBe(false);
      expect(await partitionExists(`emails_p${oldMonth}`)).toBe(false);
      // Its month of content went with it; the audience's content moved out first, and stays.
      expect(await partitionExists(`email_contents_p${oldMonth}`)).toBe(false);
      expect(await partitionExists(`email_contents_p${middleMonth}`)).toBe(true);
      // Read in SQL: content rows are not listed by the API.
      expect(await s.db.query(`SELECT audience FROM email_contents WHERE id = $1`, [audienceContent])).toEqual([{ audience: true }]);
      // The nearer month stays (the keeper keeps for good); the pruned project's rows in it went by batches.
      expect(await partitionExists(`events_p${middleMonth}`)).toBe(true);
      await pruned.api.get(`/v1/emails/${oldEmail}`).expect(404);
      await pruned.api.get(`/v1/emails/${middleEmail}`).expect(404);
      await pruned.api.get(`/v1/emails/${recentEmail}`).expect(200);
      await keeper.api.get(`/v1/emails/${keptEmail}`).expect(200);
      // Read in SQL: the API lists no events by age past the retention.
      const [{ left }] = await s.db.query(`SELECT count(*)::int AS left FROM events WHERE project_id = $1 AND created_at < now() - interval '30 days'`, [pruned.project.id]);
      expect(left).toBe(0);
      const [{ recent }] = await s.db.query(`SELECT count(*)::int AS recent FROM events WHERE project_id = $1`, [pruned.project.id]);
      expect(recent).toBeGreaterThan(0);
      expect((await keeper.api.get('/events').expect(200)).body).toEqual(keeperEvents);
      // Aggregates survive: every analytics answer is what it was before pruning.
      expect(await analytics(pruned)).toEqual(before.pruned);
      expect(await analytics(keeper)).toEqual(before.keeper);
      // A second round finds nothing more to do.
      await prune();
      expect(await analytics(pruned)).toEqual(before.pruned);
    });
  });

  describe('what is held', () => {
    it("answers per table the project's rows, estimated bytes and the oldest event and email", async () => {
      await s.api.post('/v1/track', { email: 'tracked@example.com', event: 'signed-up' }).expect(200);
      const res = (await s.dashboard.get(`${projectUrl()}/storage`).expect(200)).body as {
        tables: Array<{ name: string; rows: number; rowsEstimated: boolean; bytes: number; oldestAt: string | null }>;
        measuredAt: string;
      };
      const byName = new Map(res.tables.map((t) => [t.name, t]));
      expect([...byName.keys()].sort()).toEqual(['contacts', 'emailContents', 'emails', 'events', 'inboundMessages', 'webhookDeliveries']);
      for (const t of res.tables) {
        expect(Number.isInteger(t.rows) && t.rows >= 0).toBe(true);
        expect(Number.isInteger(t.bytes) && t.bytes >= 0).toBe(true);
      }
      const emails = byName.get('emails')!;
      expect(emails).toMatchObject({ rows: await s.read.emailCount(), rowsEstimated: false });
      expect(emails.bytes).toBeGreaterThan(0);
      // The oldest email is the one aged 45 days.
      expect(Date.now() - Date.parse(emails.oldestAt!)).toBeGreaterThan(44 * DAY);
      expect(byName.get('contacts')!.rows).toBe(await s.read.contactCount());
      const events = byName.get('events')!;
      expect(events.rows).toBeGreaterThan(0);
      expect(Date.parse(events.oldestAt!)).toBeLessThanOrEqual(Date.now());
      expect(byName.get('inboundMessages')!.rows).toBe(1);
      expect(Date.parse(res.measuredAt)).toBeGreaterThan(Date.now() - 60_000);
    });
  });
});
