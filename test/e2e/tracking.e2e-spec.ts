import request from 'supertest';
import { eventually, outboxMessage, pathOf, send } from '../support/deliverability';
import { useSession } from '../support/session';
import { signToken } from '../../src/modules/emails/marks/signed-token';

// Emails (open and click counters and timestamps) and events are read through the API.
describe('open and click tracking', () => {
  const s = useSession({ PUBLIC_URL: 'https://mail.example.test' });
  const email = async (id: string) => (await s.read.email(id))!;

  const html = `<html><body><h1>Hi</h1>
<a href="https://example.com/pricing?plan=pro&amp;ref=mail">Pricing</a>
<a href="mailto:help@example.com">Mail us</a> <a href="tel:+123">Call</a> <a href="#top">Top</a>
<!-- <a href="https://hidden.example.com">hidden</a> -->
</body></html>`;

  async function sendTracked(extra: Record<string, unknown> = {}) {
    const res = await send(s.app, s.project, { to: 'reader@example.net', subject: 'Tracked', body: html, from: 'news@example.com', ...extra });
    const emailId: string = res.data.emails[0].email;
    return { emailId, message: await outboxMessage(s.app, emailId) };
  }

  const clickLinks = (body: string) => [...body.matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
  const pixels = (body: string) => [...body.matchAll(/src="([^"]*\/t\/o\/[^"]+\.gif)"/g)].map((m) => m[1]);

  it('rewrites http(s) links, leaves mailto/tel/anchors/comments alone, and adds one pixel', async () => {
    const { message } = await sendTracked();
    const body = message.parsed.html as string;
    const links = clickLinks(body);
    expect(links).toHaveLength(1);
    expect(links[0].startsWith('https://mail.example.test/t/c/')).toBe(true);
    expect(body).toContain('href="mailto:help@example.com"');
    expect(body).toContain('href="tel:+123"');
    expect(body).toContain('href="#top"');
    expect(body).toContain('<a href="https://hidden.example.com">hidden</a>');
    expect(pixels(body)).toHaveLength(1);
    expect(body.indexOf('/t/o/')).toBeLessThan(body.indexOf('</body>'));
  });

  it('counts every open, sets opened_at once, and emits email.open', async () => {
    const { emailId, message } = await sendTracked();
    const pixel = pathOf(pixels(message.parsed.html as string)[0]);
    const res = await s.anonymous.get(pixel).expect(200);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.body.length).toBeGreaterThan(30);
    const first = await email(emailId);
    expect(first.openCount).toBe(1);
    expect(first.openedAt).toBeTruthy();
    await s.anonymous.get(pixel).expect(200);
    const second = await email(emailId);
    expect(second.openCount).toBe(2);
    expect(new Date(second.openedAt!).getTime()).toBe(new Date(first.openedAt!).getTime());
    const opens = await s.read.emailEvents(emailId, 'email.open');
    expect(opens).toHaveLength(2);
    expect(opens[0].data).toEqual({ emailId, subject: 'Tracked', from: 'news@example.com', templateId: null, campaignId: null });
    expect(opens[0].contactId).toBeTruthy();
  });

  it('redirects a signed click to its target, counting it with an email.click event', async () => {
    const { emailId, message } = await sendTracked();
    const link = pathOf(clickLinks(message.parsed.html as string)[0]);
    // A link scanner's HEAD is answered but not counted.
    await request(s.http).head(link).expect(302);
    expect((await email(emailId)).clickCount).toBe(0);
    const res = await s.anonymous.get(link).expect(302);
    expect(res.headers.location).toBe('https://example.com/pricing?plan=pro&ref=mail');
    await s.anonymous.get(link).expect(302);
    const clicked = await email(emailId);
    expect(clicked.clickCount).toBe(2);
    expect(clicked.clickedAt).toBeTruthy();
    const clicks = await s.read.emailEvents(emailId, 'email.click');
    expect(clicks).toHaveLength(2);
    expect(clicks[0].data).toEqual({ emailId, subject: 'Tracked', from: 'news@example.com', templateId: null, campaignId: null, link: 'https://example.com/pricing?plan=pro&ref=mail' });
  });

  it('answers tampered, foreign and non-http links with 404, never a redirect', async () => {
    const { emailId, message } = await sendTracked();
    const link = pathOf(clickLinks(message.parsed.html as string)[0]);
    const token = link.slice('/t/c/'.length);
    const tampered = token.slice(0, 5) + (token[5] === 'a' ? 'b' : 'a') + token.slice(6);
    for (const path of [`/t/c/${tampered}`, `/t/c/${token}x`, `/t/c/${token.slice(0, -1)}`, '/t/c/nope']) {
      const res = await s.anonymous.get(path).expect(404);
      expect(res.headers.location).toBeUndefined();
    }
    // Signed with another installation's secret.
    const foreign = signToken('f'.repeat(64), 'click', [emailId, 'https://evil.example/']);
    await s.anonymous.get(`/t/c/${foreign}`).expect(404);
    // Even a correctly signed non-http target is refused.
    const js = signToken(s.app.config.appSecret, 'click', [emailId, 'javascript:alert(1)']);
    await s.anonymous.get(`/t/c/${js}`).expect(404);
    // A pixel token is not a click token, and vice versa.
    const pixel = pathOf(pixels(message.parsed.html as string)[0]);
    await s.anonymous.get(`/t/c/${pixel.slice('/t/o/'.length, -4)}`).expect(404);
    await s.anonymous.get(`/t/o/${token}.gif`).expect(404);
    expect((await email(emailId)).clickCount).toBe(0);
  });

  it('honours the per-send override and the project mode', async () => {
    const off = await sendTracked({ tracking: false });
    expect(clickLinks(off.message.parsed.html as string)).toHaveLength(0);
    expect(pixels(off.message.parsed.html as string)).toHaveLength(0);

    const patch = (tracking: string) =>
      s.dashboard.patch(`/users/@me/projects/${s.project.id}`, { tracking }).expect(200);
    await patch('DISABLED');
    await eventually(async () => {
      const disabled = await sendTracked();
      expect(pixels(disabled.message.parsed.html as string)).toHaveLength(0);
      expect(clickLinks(disabled.message.parsed.html as string)).toHaveLength(0);
    });
    const forced = await sendTracked({ tracking: true });
    expect(pixels(forced.message.parsed.html as string)).toHaveLength(1);
    expect(clickLinks(forced.message.parsed.html as string)).toHaveLength(1);

    await patch('MARKETING_ONLY');
    const marketing = await s.api
      .post('/templates', { name: 'M', subject: 'Promo', body: html, from: 'news@example.com', type: 'MARKETING' })
      .expect(201);
    await eventually(async () => {
      const promo = await send(s.app, s.project, { to: 'reader@example.net', template: marketing.body.id, subscribed: true });
      const promoHtml = (await outboxMessage(s.app, promo.data.emails[0].email)).parsed.html as string;
      expect(pixels(promoHtml)).toHaveLength(1);
      expect(clickLinks(promoHtml)).toHaveLength(1);
    });
    const transactional = await sendTracked();
    expect(pixels(transactional.message.parsed.html as string)).toHaveLength(0);
    await patch('ENABLED');
  });
});
