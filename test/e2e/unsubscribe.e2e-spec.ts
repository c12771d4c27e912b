import { createTemplate, eventually, outboxMessage, pathOf, send } from '../support/deliverability';
import { useSession } from '../support/session';
import { recipientToken } from '../../src/modules/emails/marks/recipient-token';

describe('recipient links, hosted pages, one-click unsubscribe, footer', () => {
  const s = useSession({ PUBLIC_URL: 'https://mail.example.test' }, { projectName: 'Acme News' });
  const subscribed = async (contactId: string) => (await s.read.contact(contactId))!.subscribed;
  const flips = (name: string, contactId: string) => s.read.events({ name, contactId });
  let marketing: string;
  let headless: string;
  let transactional: string;

  const linksBody = '<html><body><p>Hello {{email}}</p><p>U={{unsubscribeUrl}}</p><p>S={{subscribeUrl}}</p><p>M={{manageUrl}}</p></body></html>';

  async function sendTemplate(template: string, to: string, extra: Record<string, unknown> = {}) {
    const res = await send(s.app, s.project, { to, template, subscribed: true, ...extra });
    const emailId: string = res.data.emails[0].email;
    const message = await outboxMessage(s.app, emailId);
    const html = message.parsed.html as string;
    const link = (key: string) => new RegExp(`${key}=(\\S+?)<`).exec(html)![1];
    return { res, emailId, message, html, contactId: res.data.emails[0].contact.id as string, unsubscribe: link('U'), subscribe: link('S'), manage: link('M') };
  }

  beforeAll(async () => {
    marketing = await createTemplate(s.app, s.project, { subject: 'News', body: linksBody, type: 'MARKETING' });
    headless = await createTemplate(s.app, s.project, { subject: 'Headless', body: linksBody, type: 'HEADLESS' });
    transactional = await createTemplate(s.app, s.project, { subject: 'Receipt', body: linksBody, type: 'TRANSACTIONAL' });
  });

  it('gives MARKETING mail signed links, List-Unsubscribe one-click headers and a localized footer', async () => {
    const sent = await sendTemplate(marketing, 'footer@example.net');
    expect(sent.unsubscribe).toMatch(/^https:\/\/mail\.example\.test\/u\/[A-Za-z0-9_-]+$/);
    expect(sent.subscribe).toMatch(/^https:\/\/mail\.example\.test\/s\//);
    expect(sent.manage).toMatch(/^https:\/\/mail\.example\.test\/m\//);
    expect(sent.message.header('list-unsubscribe')).toBe(`<${sent.unsubscribe}>`);
    expect(sent.message.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(sent.html).toContain('data-mailroom-footer');
    expect(sent.html).toContain('You are receiving this email from Acme News.');
    expect(sent.html).toContain(`href="${sent.unsubscribe}"`);
    expect(sent.html.indexOf('data-mailroom-footer')).toBeLessThan(sent.html.indexOf('</body>'));
    expect(sent.message.parsed.text).toContain(`Unsubscribe: ${sent.unsubscribe}`);
    // The unsubscribe and manage links are never wrapped for click tracking.
    expect(sent.html).not.toMatch(/\/t\/c\/[^"]*"[^>]*>Unsubscribe/);
  });

  it('gives HEADLESS mail the headers but no footer, and TRANSACTIONAL mail neither', async () => {
    const h = await sendTemplate(headless, 'headless@example.net');
    expect(h.message.header('list-unsubscribe')).toBe(`<${h.unsubscribe}>`);
    expect(h.message.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(h.html).not.toContain('data-mailroom-footer');
    const t = await sendTemplate(transactional, 'receipt@example.net');
    expect(t.message.header('list-unsubscribe')).toBeUndefined();
    expect(t.message.header('list-unsubscribe-post')).toBeUndefined();
    expect(t.html).not.toContain('data-mailroom-footer');
    expect(t.unsubscribe).toMatch(/\/u\//);
  });

  it('shows the unsubscribe page on GET without changing anything; the POST unsubscribes', async () => {
    const sent = await sendTemplate(marketing, 'pages@example.net');
    const page = await s.anonymous.get(pathOf(sent.unsubscribe)).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toContain('pages@example.net');
    expect(page.text).not.toMatch(/<script|<link|src="http/);
    expect(await subscribed(sent.contactId)).toBe(true);

    const done = await s.anonymous.post(pathOf(sent.unsubscribe)).type('form').send({}).expect(200);
    expect(done.text).toContain('has been unsubscribed');
    expect(await subscribed(sent.contactId)).toBe(false);
    const unsubscribed = await flips('contact.unsubscribed', sent.contactId);
    expect(unsubscribed).toHaveLength(1);
    expect(unsubscribed[0].data).toMatchObject({ reason: 'unsubscribe_link' });

    // MARKETING and HEADLESS now skip the contact (no explicit resubscribe in the send); TRANSACTIONAL still goes.
    const skipped = await send(s.app, s.project, { to: 'pages@example.net', template: marketing });
    expect(skipped.data.emails).toEqual([]);
    expect(skipped.data.skipped).toEqual([{ to: 'pages@example.net', reason: 'unsubscribed' }]);
    expect((await send(s.app, s.project, { to: 'pages@example.net', template: headless })).data.skipped).toEqual([{ to: 'pages@example.net', reason: 'unsubscribed' }]);
    const receipt = await send(s.app, s.project, { to: 'pages@example.net', template: transactional });
    expect(receipt.data.emails).toHaveLength(1);
    expect(receipt.data.skipped).toEqual([]);

    // The subscribe link brings the contact back (GET shows, POST changes).
    await s.anonymous.get(pathOf(sent.subscribe)).expect(200);
    expect(await subscribed(sent.contactId)).toBe(false);
    await s.anonymous.post(pathOf(sent.subscribe)).type('form').send({}).expect(200);
    expect(await subscribed(sent.contactId)).toBe(true);
    expect((await flips('contact.subscribed', sent.contactId)).length).toBeGreaterThanOrEqual(1);
  });

  it('accepts the RFC 8058 one-click POST', async () => {
    const sent = await sendTemplate(marketing, 'oneclick@example.net');
    const header = sent.message.header('list-unsubscribe')!;
    const url = header.slice(1, -1);
    await s.anonymous.post(pathOf(url)).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(await subscribed(sent.contactId)).toBe(false);
    // Repeating it is harmless.
    await s.anonymous.post(pathOf(url)).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(await flips('contact.unsubscribed', sent.contactId)).toHaveLength(1);
  });

  it('lets the manage page flip the subscription both ways', async () => {
    const sent = await sendTemplate(marketing, 'manage@example.net');
    const shown = await s.anonymous.get(pathOf(sent.manage)).expect(200);
    expect(shown.text).toContain('name="action" value="unsubscribe"');
    await s.anonymous.post(pathOf(sent.manage)).type('form').send({ action: 'unsubscribe' }).expect(200);
    expect(await subscribed(sent.contactId)).toBe(false);
    const again = await s.anonymous.get(pathOf(sent.manage)).expect(200);
    expect(again.text).toContain('name="action" value="subscribe"');
    await s.anonymous.post(pathOf(sent.manage)).type('form').send({ action: 'subscribe' }).expect(200);
    expect(await subscribed(sent.contactId)).toBe(true);
    await s.anonymous.post(pathOf(sent.manage)).type('form').send({ action: 'explode' }).expect(422);
  });

  it('answers forged or tampered tokens with 404 and changes nothing', async () => {
    const sent = await sendTemplate(marketing, 'forged@example.net');
    const token = pathOf(sent.unsubscribe).slice(3);
    const tampered = token.slice(0, 4) + (token[4] === 'A' ? 'B' : 'A') + token.slice(5);
    const foreign = recipientToken('f'.repeat(64), s.project.id, sent.contactId);
    for (const t of [tampered, foreign, 'nope', `${token}x`]) {
      await s.anonymous.get(`/u/${t}`).expect(404);
      await s.anonymous.post(`/u/${t}`).type('form').send('List-Unsubscribe=One-Click').expect(404);
      await s.anonymous.post(`/m/${t}`).type('form').send({ action: 'unsubscribe' }).expect(404);
    }
    expect(await subscribed(sent.contactId)).toBe(true);
  });

  it('localizes pages and the footer from data.locale, then the project language', async () => {
    const german = await sendTemplate(marketing, 'de@example.net', { data: { locale: 'de-DE' } });
    expect(german.html).toContain('Sie erhalten diese E-Mail von Acme News.');
    expect(german.message.parsed.text).toContain('Abmelden: ');
    const page = await s.anonymous.get(pathOf(german.unsubscribe)).expect(200);
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('Abmelden');

    for (const [locale, phrase] of [
      ['fr', 'Se désabonner'],
      ['es', 'Darse de baja'],
      ['nl', 'Afmelden'],
      ['pt', 'Cancelar inscrição'],
      ['it', 'Annulla iscrizione'],
    ]) {
      const sent = await sendTemplate(marketing, `${locale}@example.net`, { data: { locale } });
      expect(sent.html).toContain(phrase);
      expect((await s.anonymous.get(pathOf(sent.unsubscribe)).expect(200)).text).toContain(`<html lang="${locale}">`);
    }

    await s.dashboard.patch(`/users/@me/projects/${s.project.id}`, { language: 'fr' }).expect(200);
    // The send path caches a project for a few seconds: poll until the new language shows.
    const french = await eventually(async () => {
      const sent = await sendTemplate(marketing, 'nolocale@example.net');
      expect(sent.html).toContain('Vous recevez cet e-mail de la part de Acme News.');
      return sent;
    });
    expect((await s.anonymous.get(pathOf(french.unsubscribe)).expect(200)).text).toContain('<html lang="fr">');
    const withLocale = await sendTemplate(marketing, 'de@example.net');
    expect(withLocale.html).toContain('Sie erhalten diese E-Mail'); // stored data.locale wins
    await s.dashboard.patch(`/users/@me/projects/${s.project.id}`, { language: 'en' }).expect(200);
  });
});
