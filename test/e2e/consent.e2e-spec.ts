import { createTemplate, outboxMessage, pathOf, send } from '../support/deliverability';
import { ProjectSession, useSession, waitFor } from '../support/session';
import { randomBytes } from 'node:crypto';
import { confirmToken } from '../../src/modules/emails/marks/confirm-token';

const APP_SECRET = randomBytes(32).toString('hex');

/**
 * Double opt-in (docs/consent.md): the project setting and its validation, the public-key
 * sign-up that stays pending until the link's POST, `doubleOptIn: true` on secret-key calls,
 * the unchanged secret-key path, the resend throttle, the repair of a crash between the sign-up's
 * commit and its email, and links that are tampered or expired.
 */
describe('double opt-in', () => {
  const s = useSession({ PUBLIC_URL: 'https://mail.example.test', APP_SECRET, CONFIRMATION_REPAIR_INTERVAL_MS: '200', DOUBLE_OPT_IN_PER_HOUR: '25' }, { projectName: 'Acme Letters' });
  const settings = (body: Record<string, unknown>) => s.dashboard.patch(`/users/@me/projects/${s.project.id}`, body);

  interface ContactState {
    id: string;
    subscribed: boolean;
    confirmation: string | null;
    confirmedAt: string | null;
  }

  const contact = async (id: string) => (await s.api.get(`/contacts/${id}`).expect(200)).body as ContactState;
  const byEmail = async (email: string) => (await s.read.contactByEmail(email)) as unknown as ContactState;
  const eventNames = async (id: string) => (await s.read.eventsOf(id)).map((e) => e.name);

  /** The confirmation emails written to the contact, oldest first. */
  const confirmationEmails = async (contactId: string) => (await s.read.emails({ contactId })).reverse();

  /** Waits for the contact's `n`-th confirmation email and returns its parsed message and link. */
  async function confirmationMail(contactId: string, n = 1) {
    const emails = await waitFor(async () => {
      const found = await confirmationEmails(contactId);
      return found.length >= n ? found : undefined;
    });
    const message = await outboxMessage(s.app, emails[n - 1].id);
    const link = /https:\/\/mail\.example\.test\/c\/[A-Za-z0-9_-]+/.exec(message.parsed.html as string)?.[0];
    return { message, link: link!, count: emails.length };
  }

  beforeAll(async () => {
    await settings({ doubleOptIn: { enabled: true } }).expect(200);
  });

  it('validates the setting: a template without {{confirmUrl}}, another project’s template, a bad redirect', async () => {
    const plain = await createTemplate(s.app, s.project, { subject: 'Hi', body: '<p>No link here</p>', type: 'TRANSACTIONAL' });
    const missing = await settings({ doubleOptIn: { enabled: true, templateId: plain } }).expect(422);
    expect(missing.body.error.errors).toEqual([expect.objectContaining({ field: 'doubleOptIn.templateId', code: 'missing_confirm_url' })]);

    const other = await s.newProject();
    const foreign = (await other.api.post('/templates', { name: 'F', from: 'a@example.com', subject: 'x', body: '{{confirmUrl}}' }).expect(201)).body.id as string;
    const notOurs = await settings({ doubleOptIn: { enabled: true, templateId: foreign } }).expect(422);
    expect(notOurs.body.error.errors[0]).toMatchObject({ field: 'doubleOptIn.templateId', code: 'not_found' });

    const badUrl = await settings({ doubleOptIn: { enabled: true, redirectUrl: 'javascript:alert(1)' } }).expect(422);
    expect(badUrl.body.error.errors[0]).toMatchObject({ field: 'doubleOptIn.redirectUrl' });
    for (const redirectUrl of ['https://example.org/thanks\r\nSet-Cookie: a=b', 'https://example.org/\nx', ' https://example.org/', 'https://example.org/\tx']) {
      const broken = await settings({ doubleOptIn: { enabled: true, redirectUrl } }).expect(422);
      expect(broken.body.error.errors[0]).toMatchObject({ field: 'doubleOptIn.redirectUrl' });
    }
    await settings({ doubleOptIn: { templateId: null } }).expect(422);

    const project = (await s.dashboard.get(`/users/@me/projects/${s.project.id}`).expect(200)).body;
    expect(project.doubleOptIn).toEqual({ enabled: true, templateId: null, redirectUrl: null });
  });

  it('serves the built-in message for previews: the project’s language by default, any supported one on request', async () => {
    const english = (await s.api.get('/double-opt-in/built-in-email').expect(200)).body;
    expect(english).toMatchObject({ locale: 'en', subject: 'Confirm your subscription' });
    expect(english.body).toContain('href="{{ confirmUrl }}"');
    expect(english.body).toContain('Confirm subscription');
    const german = (await s.dashboard.get('/double-opt-in/built-in-email?locale=de').set('X-Project-Id', s.project.id).expect(200)).body;
    expect(german.locale).toBe('de');
    expect(german.subject).not.toBe(english.subject);
    const refused = await s.api.get('/double-opt-in/built-in-email?locale=xx').expect(422);
    expect(refused.body.error.errors[0]).toMatchObject({ field: 'locale' });
  });

  it('keeps a public-key sign-up pending until the link’s POST; GET changes nothing', async () => {
    await s.publicApi.post('/v1/track', { email: 'Reader@Example.net', event: 'signup', data: { locale: 'de' } }).expect(200);
    const pending = await byEmail('reader@example.net');
    expect(pending).toMatchObject({ subscribed: false, confirmation: 'pending', confirmedAt: null });

    const { message, link } = await confirmationMail(pending.id);
    // Anyone with the public key triggers it: the project's name is in the body only, never in a header.
    expect(message.parsed.subject).toBe('Bestätigen Sie Ihre Anmeldung');
    expect(message.parsed.from?.value).toEqual([{ name: 'Mailroom', address: 'no-reply@localhost' }]);
    expect(message.parsed.html).toContain('Acme Letters');
    expect(message.parsed.html).toContain('reader@example.net');
    // Transactional and untracked: no footer, no List-Unsubscribe, the link is not rewritten.
    expect(message.header('list-unsubscribe')).toBeUndefined();
    expect(message.parsed.html).not.toContain('/t/c/');

    const shown = await s.anonymous.get(pathOf(link)).expect(200);
    expect(shown.headers['content-type']).toMatch(/text\/html/);
    expect(shown.text).toContain('<form method="post">');
    expect(shown.text).toContain('lang="de"');
    expect(await contact(pending.id)).toMatchObject({ subscribed: false, confirmation: 'pending' });
    expect(await eventNames(pending.id)).not.toContain('contact.confirmed');

    const done = await s.anonymous.post(pathOf(link)).type('form').send({}).expect(200);
    expect(done.text).toContain('reader@example.net');
    const confirmed = await contact(pending.id);
    expect(confirmed).toMatchObject({ subscribed: true, confirmation: 'confirmed' });
    expect(Date.parse(confirmed.confirmedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const names = await eventNames(pending.id);
    expect(names.filter((n) => n === 'contact.confirmed')).toHaveLength(1);
    expect(names.filter((n) => n === 'contact.subscribed')).toHaveLength(1);

    // Already confirmed: the link, a new sign-up and a resend are no-ops.
    await s.anonymous.post(pathOf(link)).type('form').send({}).expect(200);
    await s.publicApi.post('/v1/track', { email: 'reader@example.net', event: 'signup' }).expect(200);
    expect((await s.api.post(`/contacts/${pending.id}/confirmation`).expect(200)).body).toMatchObject({ confirmation: 'confirmed' });
    const after = await eventNames(pending.id);
    expect(after.filter((n) => n === 'contact.confirmed')).toHaveLength(1);
    expect(after.filter((n) => n === 'contact.subscribed')).toHaveLength(1);
    expect(await confirmationEmails(pending.id)).toHaveLength(1);
  });

  it('counts confirmations as transactional email and sends at most DOUBLE_OPT_IN_PER_HOUR a project an hour; past it the contact stays pending without one', async () => {
    const other = await s.newProject('Flooded');
    await other.dashboard.patch(`/users/@me/projects/${other.project.id}`, { doubleOptIn: { enabled: true } }).expect(200);
    for (let i = 0; i < 26; i++) await other.publicApi.post('/v1/track', { email: `flood${i}@example.net`, event: 'signup' }).expect(200);
    const first = await other.read.contactByEmail('flood0@example.net');
    const last = await other.read.contactByEmail('flood25@example.net');
    expect(last).toMatchObject({ subscribed: false, confirmation: 'pending' });
    await waitFor(async () => ((await other.read.emails({ contactId: first!.id })).length === 1 ? true : undefined));
    expect(await other.read.emails({ contactId: last!.id })).toHaveLength(0);
    const consumption = (await other.dashboard.get(`/users/@me/projects/${other.project.id}/billing-consumption`).expect(200)).body;
    expect(consumption.transactional).toBe(25);
  });

  it('redirects to redirectUrl after confirming, and uses the project’s template', async () => {
    const template = await createTemplate(s.app, s.project, { subject: 'Please confirm', body: '<p>Click <a href="{{ confirmUrl }}">here</a>, {{ name }}</p>', type: 'TRANSACTIONAL' });
    await settings({ doubleOptIn: { enabled: true, templateId: template, redirectUrl: 'https://example.org/thanks' } }).expect(200);
    try {
      await s.publicApi.post('/v1/track', { email: 'templated@example.net', event: 'signup', data: { name: 'Ada' } }).expect(200);
      const pending = await byEmail('templated@example.net');
      const { message, link } = await confirmationMail(pending.id);
      expect(message.parsed.subject).toBe('Please confirm');
      expect(message.parsed.html).toContain('Ada');
      const res = await s.anonymous.post(pathOf(link)).type('form').send({}).expect(303);
      expect(res.headers.location).toBe('https://example.org/thanks');
      expect(await contact(pending.id)).toMatchObject({ subscribed: true, confirmation: 'confirmed' });
    } finally {
      await settings({ doubleOptIn: { enabled: true } }).expect(200);
    }
  });

  it('applies to secret-key calls only with doubleOptIn: true; without it they behave as before', async () => {
    const plain = await s.api.post('/contacts', { email: 'direct@example.net' }).expect(201);
    expect(plain.body).toMatchObject({ subscribed: true, confirmation: null, confirmedAt: null });
    await s.api.post('/v1/track', { email: 'tracked@example.net', event: 'signup' }).expect(200);
    expect(await byEmail('tracked@example.net')).toMatchObject({ subscribed: true, confirmation: null });
    expect(await confirmationEmails(plain.body.id)).toHaveLength(0);

    const viaContacts = await s.api.post('/contacts', { email: 'asked@example.net', doubleOptIn: true }).expect(201);
    expect(viaContacts.body).toMatchObject({ subscribed: false, confirmation: 'pending' });
    expect((await confirmationMail(viaContacts.body.id)).link).toBeDefined();

    await s.api.post('/v1/track', { email: 'asked-track@example.net', event: 'signup', doubleOptIn: true }).expect(200);
    const viaTrack = await byEmail('asked-track@example.net');
    expect(viaTrack).toMatchObject({ subscribed: false, confirmation: 'pending' });
    await confirmationMail(viaTrack.id);

    const sendBody = { subject: 'Welcome', body: '<p>Hi</p>', from: 'hello@example.com', subscribed: true };
    const sentPlain = await s.api.post('/v1/send', { ...sendBody, to: 'sent-plain@example.net' }).expect(200);
    expect(await contact(sentPlain.body.data.emails[0].contact.id)).toMatchObject({ subscribed: true, confirmation: null });
    const sentAsked = await s.api.post('/v1/send', { ...sendBody, to: 'sent-asked@example.net', doubleOptIn: true }).expect(200);
    const askedId = sentAsked.body.data.emails[0].contact.id as string;
    expect(await contact(askedId)).toMatchObject({ subscribed: false, confirmation: 'pending' });
    // The send's own (transactional) email and the confirmation email.
    expect((await confirmationMail(askedId, 2)).count).toBe(2);
    await s.api.post('/v1/send', { ...sendBody, to: 'x@example.net', doubleOptIn: 'yes' }).expect(422);

    // An existing unsubscribed contact tracked with the public key keeps its state (as without
    // double opt-in): no confirmation; with subscribed: true it is asked to confirm.
    const quiet = (await s.api.post('/contacts', { email: 'quiet@example.net', subscribed: false }).expect(201)).body;
    await s.publicApi.post('/v1/track', { email: 'quiet@example.net', event: 'page_view' }).expect(200);
    expect(await contact(quiet.id)).toMatchObject({ subscribed: false, confirmation: null });
    expect(await confirmationEmails(quiet.id)).toHaveLength(0);
    await s.publicApi.post('/v1/track', { email: 'quiet@example.net', event: 'signup', subscribed: true }).expect(200);
    expect(await contact(quiet.id)).toMatchObject({ subscribed: false, confirmation: 'pending' });
    await confirmationMail(quiet.id);

    // An explicit unsubscribe is never turned into a confirmation request.
    const declined = await s.publicApi.post('/v1/track', { email: 'declined@example.net', event: 'signup', subscribed: false }).expect(200);
    const declinedContact = await contact(declined.body.data.contact);
    expect(declinedContact).toMatchObject({ subscribed: false, confirmation: null });
  });

  it('resends at most once per 10 minutes (429 with Retry-After)', async () => {
    const created = (await s.api.post('/contacts', { email: 'resend@example.net', subscribed: false }).expect(201)).body;
    expect(created.confirmation).toBeNull();
    const first = await s.api.post(`/contacts/${created.id}/confirmation`).expect(200);
    expect(first.body).toMatchObject({ subscribed: false, confirmation: 'pending' });
    await confirmationMail(created.id);

    const throttled = await s.api.post(`/contacts/${created.id}/confirmation`).expect(429);
    expect(throttled.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(throttled.body.error.details).toEqual({ retryAfter });
    // A repeated public sign-up does not send another one either.
    await s.publicApi.post('/v1/track', { email: 'resend@example.net', event: 'signup' }).expect(200);
    expect(await confirmationEmails(created.id)).toHaveLength(1);

    // Once the last email is older than 10 minutes, a resend goes (the clock moved by hand).
    // Time travel in SQL: no endpoint ages a confirmation email.
    await s.db.query(`UPDATE contacts SET confirmation_sent_at = now() - interval '11 minutes' WHERE id = $1`, [created.id]);
    await s.api.post(`/contacts/${created.id}/confirmation`).expect(200);
    expect((await confirmationMail(created.id, 2)).count).toBe(2);

    const subscribed = (await s.api.post('/contacts', { email: 'already@example.net' }).expect(201)).body;
    await s.api.post(`/contacts/${subscribed.id}/confirmation`).expect(409);
    await s.api.post('/contacts/cnt_00000000000000000000000000000000/confirmation').expect(404);
    const other = await s.newProject();
    await other.api.post(`/contacts/${created.id}/confirmation`).expect(404);
  });

  it('writes the confirmation email a crash after the sign-up’s commit left owed, exactly once (repair pass)', async () => {
    const email = 'crash@example.net';
    const owedSince = async (id: string) =>
      // Read in SQL: no endpoint shows that a confirmation email is owed (the contact reads `confirmation: null`).
      ((await s.db.query(`SELECT confirmation_requested_at FROM contacts WHERE id = $1`, [id])) as Array<{ confirmation_requested_at: Date | null }>)[0]
        .confirmation_requested_at;
    /** A public sign-up to `p` whose confirmation email a crash after the contact's commit left owed. */
    const crashedSignup = async (p: ProjectSession, address: string) => {
      // Fault staged in SQL: a constraint that fails the email insert stands in for a crash between the contact's commit and its email.
      await s.db.query(`ALTER TABLE emails ADD CONSTRAINT doi_e2e_fail CHECK (to_address <> '${address}')`);
      try {
        const failed = await p.publicApi.post('/v1/track', { email: address, event: 'signup' });
        expect(failed.status).toBeGreaterThanOrEqual(500);
      } finally {
        // Fault lifted in SQL, as it was staged.
        await s.db.query(`ALTER TABLE emails DROP CONSTRAINT doi_e2e_fail`);
      }
      return (await p.read.contactByEmail(address))!;
    };
    // Time travel in SQL: no endpoint ages an owed confirmation past the repair pass's grace.
    const pastGrace = (id: string) => s.db.query(`UPDATE contacts SET confirmation_requested_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
    // The repair pass has run since now: another project's contact, owed and past the grace, got its email.
    const marker = await s.newProject('Repair marker');
    await marker.dashboard.patch(`/users/@me/projects/${marker.project.id}`, { doubleOptIn: { enabled: true } }).expect(200);
    let markers = 0;
    const repairRan = async () => {
      const owedMarker = await crashedSignup(marker, `marker${++markers}@example.net`);
      await pastGrace(owedMarker.id);
      await waitFor(async () => ((await marker.read.emails({ contactId: owedMarker.id })).length === 1 ? true : undefined));
    };
    await crashedSignup(s, email);
    // The contact committed unsubscribed with the decision that it must confirm; the mark and the throttle's stamp rolled back with the email.
    const owed = await byEmail(email);
    expect(owed).toMatchObject({ subscribed: false, confirmation: null });
    expect(await owedSince(owed.id)).not.toBeNull();
    expect(await confirmationEmails(owed.id)).toHaveLength(0);

    // Within the grace the repair pass leaves it (a request's own path may still be under way); past it, one email.
    await repairRan();
    expect(await confirmationEmails(owed.id)).toHaveLength(0);
    await pastGrace(owed.id);
    const { link } = await confirmationMail(owed.id);
    expect(await contact(owed.id)).toMatchObject({ subscribed: false, confirmation: 'pending' });
    expect(await owedSince(owed.id)).toBeNull();

    // Later rounds and a repeated sign-up (throttled: its marker is cleared without an email) send no more.
    await s.publicApi.post('/v1/track', { email, event: 'signup' }).expect(200);
    expect(await owedSince(owed.id)).toBeNull();
    await repairRan();
    expect(await confirmationEmails(owed.id)).toHaveLength(1);
    await s.anonymous.post(pathOf(link)).type('form').send({}).expect(200);
    expect(await contact(owed.id)).toMatchObject({ subscribed: true, confirmation: 'confirmed' });
  });

  it('answers tampered, foreign and expired links with a friendly page and changes nothing', async () => {
    await s.publicApi.post('/v1/track', { email: 'forged@example.net', event: 'signup' }).expect(200);
    const pending = await byEmail('forged@example.net');
    const { link } = await confirmationMail(pending.id);
    const token = pathOf(link).slice(3);
    const tampered = token.slice(0, 4) + (token[4] === 'A' ? 'B' : 'A') + token.slice(5);
    const foreign = confirmToken('f'.repeat(64), s.project.id, pending.id, new Date(Date.now() + 3_600_000));
    for (const t of [tampered, foreign, 'nope']) {
      for (const method of ['get', 'post'] as const) {
        const res = await s.anonymous[method](`/c/${t}`).expect(404);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.text).toContain('This link is invalid or has expired');
      }
    }
    const old = confirmToken(APP_SECRET, s.project.id, pending.id, new Date(Date.now() - 1000));
    const gone = await s.anonymous.post(`/c/${old}`).type('form').send({}).expect(410);
    expect(gone.text).toContain('This link is invalid or has expired');
    expect(await contact(pending.id)).toMatchObject({ subscribed: false, confirmation: 'pending' });
    expect(await eventNames(pending.id)).not.toContain('contact.confirmed');
  });

  it('filters the contact list by confirmation state', async () => {
    const pending = (await s.api.get('/contacts', { confirmation: 'pending', limit: 100 }).expect(200)).body.data as ContactState[];
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((c) => c.confirmation === 'pending')).toBe(true);
    const none = (await s.api.get('/contacts', { confirmation: 'none', limit: 100 }).expect(200)).body.data as ContactState[];
    expect(none.every((c) => c.confirmation === null)).toBe(true);
    await s.api.get('/contacts', { confirmation: 'maybe' }).expect(422);
  });

  it('says so in GET /config', async () => {
    expect((await s.anonymous.get('/config').expect(200)).body.doubleOptIn).toBe(true);
  });

  it('refuses contact.confirmed as a tracked event name', async () => {
    await s.api.post('/v1/track', { email: 'x@example.net', event: 'contact.confirmed' }).expect(422);
  });
});

/**
 * The preference centre behind `{{manageUrl}}` (docs/consent.md): public topics as toggles
 * (effective membership), snooze, unsubscribe from everything; plain forms (no script), GET
 * changes nothing, tampered links change nothing, and changes emit the API's events.
 */
describe('preference centre', () => {
  const s = useSession({ PUBLIC_URL: 'https://mail.example.test' }, { projectName: 'Acme Letters' });
  let template: string;

  interface PrefsContact {
    subscribed: boolean;
    topics: Record<string, boolean>;
    snoozedUntil: string | null;
  }
  const contact = async (id: string) => (await s.api.get(`/contacts/${id}`).expect(200)).body as PrefsContact;
  const events = async (id: string, name: string) => (await s.read.eventsOf(id)).filter((e) => e.name === name);

  /** Sends the MARKETING template and returns the manage link from the body and the footer. */
  async function manageLink(to: string) {
    const sent = await send(s.app, s.project, { to, template, subscribed: true });
    const message = await outboxMessage(s.app, sent.data.emails[0].email);
    const html = message.parsed.html as string;
    const manage = /M=(\S+?)</.exec(html)![1];
    return { manage, path: pathOf(manage), html, contactId: sent.data.emails[0].contact.id as string };
  }
  const post = (path: string, form: string) => s.anonymous.post(path).type('form').send(form);

  beforeAll(async () => {
    await s.api.post('/topics', { name: 'Product news', default: 'opt_out' }).expect(201);
    await s.api.post('/topics', { name: 'Events', description: 'Meetups & webinars', default: 'opt_in' }).expect(201);
    await s.api.post('/topics', { name: 'Internal', default: 'opt_out', public: false }).expect(201);
    template = await createTemplate(s.app, s.project, { subject: 'News', body: '<html><body><p>M={{manageUrl}}</p></body></html>', type: 'MARKETING' });
  });

  it('links the MARKETING footer to the centre and shows public topics as accessible toggles without changing anything', async () => {
    const { manage, path, html, contactId } = await manageLink('prefs@example.net');
    expect(manage).toMatch(/^https:\/\/mail\.example\.test\/m\/[A-Za-z0-9_-]+$/);
    expect(html).toMatch(new RegExp(`data-mailroom-footer[\\s\\S]*href="${manage}"[^>]*>Manage preferences`));

    const page = await s.anonymous.get(path).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).not.toMatch(/<script|src="http/);
    expect(page.text).toMatch(/<fieldset><legend>Topics<\/legend>/);
    // Topics in name order; each box has its label (and its description) tied to it.
    expect(page.text).toMatch(/<input type="checkbox" id="topic-0" name="topics" value="events" aria-describedby="topic-0-d"><label for="topic-0">Events<\/label><p class="hint" id="topic-0-d">/);
    expect(page.text).toMatch(/<input type="checkbox" id="topic-1" name="topics" value="product-news" checked><label for="topic-1">Product news<\/label>/);
    expect(page.text).toContain('Meetups &amp; webinars');
    expect(page.text).not.toContain('internal');
    expect(page.text).toMatch(/<fieldset><legend>Pause emails<\/legend>/);
    for (const value of ['none', '2w', '1m', '3m']) expect(page.text).toContain(`name="snooze" value="${value}"`);
    expect(page.text).toContain('name="action" value="unsubscribe"');
    expect(await contact(contactId)).toMatchObject({ subscribed: true, topics: {}, snoozedUntil: null });
  });

  it('saves topic toggles and a snooze from a plain form post, with the API’s events', async () => {
    const { path, contactId } = await manageLink('toggle@example.net');
    const saved = await post(path, 'action=save&topics=events&snooze=2w').expect(200);
    expect(saved.text).toContain('Your preferences have been saved.');
    expect(saved.text).toContain('Emails are paused until');
    expect(saved.text).toMatch(/value="events" checked aria-describedby="topic-0-d"/);
    const after = await contact(contactId);
    expect(after.topics).toEqual({ 'product-news': false, events: true });
    const days = (Date.parse(after.snoozedUntil!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);
    expect(await events(contactId, 'contact.topic.unsubscribed')).toEqual([expect.objectContaining({ data: expect.objectContaining({ topic: 'product-news', reason: 'preferences_page' }) })]);
    expect(await events(contactId, 'contact.topic.subscribed')).toEqual([expect.objectContaining({ data: expect.objectContaining({ topic: 'events' }) })]);
    expect(await events(contactId, 'contact.snoozed')).toHaveLength(1);

    // Saving again as shown (snooze kept: empty value) changes nothing and emits nothing.
    await post(path, 'action=save&topics=events&snooze=').expect(200);
    expect((await contact(contactId)).snoozedUntil).toBe(after.snoozedUntil);
    expect(await events(contactId, 'contact.snoozed')).toHaveLength(1);

    // A private topic's slug is ignored; no box checked leaves every public topic; "none" ends the snooze.
    await post(path, 'action=save&topics=internal&snooze=none').expect(200);
    const cleared = await contact(contactId);
    expect(cleared.topics).toEqual({ 'product-news': false, events: false });
    expect(cleared.snoozedUntil).toBeNull();

    await post(path, 'action=save&snooze=3m').expect(200);
    const months = (Date.parse((await contact(contactId)).snoozedUntil!) - Date.now()) / 86_400_000;
    expect(months).toBeGreaterThan(88);
    expect(months).toBeLessThan(93);
    await post(path, 'action=save&snooze=forever').expect(422);
  });

  it('unsubscribes from everything and can subscribe again', async () => {
    const { path, contactId } = await manageLink('all@example.net');
    const done = await post(path, 'action=unsubscribe').expect(200);
    expect(done.text).toContain('name="action" value="subscribe"');
    expect((await contact(contactId)).subscribed).toBe(false);
    expect(await events(contactId, 'contact.unsubscribed')).toEqual([expect.objectContaining({ data: expect.objectContaining({ reason: 'preferences_page' }) })]);
    await post(path, 'action=subscribe').expect(200);
    expect((await contact(contactId)).subscribed).toBe(true);
  });

  it('answers tampered links with the friendly page and changes nothing', async () => {
    const { path, contactId } = await manageLink('tampered@example.net');
    const token = path.slice(3);
    const tampered = token.slice(0, 4) + (token[4] === 'A' ? 'B' : 'A') + token.slice(5);
    const shown = await s.anonymous.get(`/m/${tampered}`).expect(404);
    expect(shown.headers['content-type']).toMatch(/text\/html/);
    expect(shown.text).toContain('This link is invalid or has expired');
    await post(`/m/${tampered}`, 'action=unsubscribe').expect(404);
    await post(`/m/${tampered}`, 'action=save&snooze=1m').expect(404);
    expect(await contact(contactId)).toMatchObject({ subscribed: true, topics: {}, snoozedUntil: null });
  });
});
