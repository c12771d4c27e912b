import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assert, type Journey, until } from '../harness';

/** What the shop page's own script saw, written into its `#result`. */
interface Tracked {
  status: number;
  body: { success?: boolean; data?: { contact?: string; event?: string } };
  remaining: string | null;
  requestId: string | null;
}

/** A shop's page on another origin that tracks a page view with the public key, as a site would. */
function shopPage(serviceUrl: string, publicKey: string, email: string): string {
  const call = `fetch(${JSON.stringify(`${serviceUrl}/v1/track`)}, {
        method: 'POST',
        headers: { Authorization: ${JSON.stringify(`Bearer ${publicKey}`)}, 'Content-Type': 'application/json' },
        body: JSON.stringify({ event: 'viewed-pricing', email: ${JSON.stringify(email)}, data: { page: '/pricing' } }),
      })`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
  <h1>Pricing</h1>
  <output id="result">pending</output>
  <script>
    (async () => {
      const out = document.getElementById('result');
      try {
        const res = await ${call};
        const body = await res.json();
        out.textContent = JSON.stringify({ status: res.status, body, remaining: res.headers.get('RateLimit-Remaining'), requestId: res.headers.get('X-Request-ID') });
      } catch (err) {
        out.textContent = 'failed: ' + err.message;
      }
    })();
  </script>
</body></html>`;
}

async function serve(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A web page served from another loopback origin tracks an event with `fetch` and the public key
 * (CORS on the public API), reads an error's top-level `message`, and cannot call a dashboard
 * route; the event is then visible through the API. Its own user, project and browser context
 * (no dashboard cookie), so it runs alone too (BROWSER_JOURNEYS=cors).
 */
export const corsJourney: Journey = {
  name: 'cors',
  async run({ context, baseUrl }) {
    const xhr = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    const signup = await fetch(`${baseUrl}/auth/signup`, {
      method: 'POST',
      headers: xhr,
      body: JSON.stringify({ email: `cors-${Date.now()}@example.com`, password: 'correct horse battery' }),
    });
    assert(signup.status === 201, `sign-up answers 201 (${signup.status})`);
    const cookie = signup.headers.getSetCookie()[0].split(';')[0];
    const created = await fetch(`${baseUrl}/users/@me/projects`, { method: 'POST', headers: { ...xhr, Cookie: cookie }, body: JSON.stringify({ name: 'Shop' }) });
    const project = (await created.json()) as { public: string; secret: string };
    assert(created.status === 201 && project.public.startsWith('pk_'), `the project is created with its keys (${created.status})`);

    const email = 'visitor@example.org';
    const shop = await serve(shopPage(baseUrl, project.public, email));
    const browser = context.browser();
    assert(browser, 'the journey runs in a launched browser');
    const own = await browser.newContext();
    try {
      const page = await own.newPage();
      await page.goto(shop.url);
      const result = page.locator('#result');
      await until('the page tracked its event', async () => (await result.textContent()) !== 'pending');
      const text = (await result.textContent()) ?? '';
      assert(text.startsWith('{'), `the cross-origin fetch succeeded: ${text}`);
      const tracked = JSON.parse(text) as Tracked;
      assert(tracked.status === 200 && tracked.body.success === true && tracked.body.data?.event, `POST /v1/track answered 200 to the page: ${text}`);
      assert(tracked.remaining !== null && tracked.requestId !== null, `the page reads the rate-limit and request id headers: ${text}`);

      // An error reaches the page with its text at the top level (how Plunk's SDK reads it).
      const refused = await page.evaluate(async (url) => {
        const res = await fetch(`${url}/v1/track`, { method: 'POST', headers: { Authorization: 'Bearer pk_wrong', 'Content-Type': 'application/json' }, body: '{}' });
        const body = (await res.json()) as { message?: string };
        return { status: res.status, message: body.message ?? 'Unknown API Error' };
      }, baseUrl);
      assert(refused.status === 401 && refused.message === 'Invalid API key', `the page reads the error message: ${JSON.stringify(refused)}`);

      // Dashboard routes stay closed to other origins, even with a valid key.
      const blocked = await page.evaluate(async ({ url, key }) => {
        try {
          const res = await fetch(`${url}/contacts`, { headers: { Authorization: `Bearer ${key}` } });
          return `answered ${res.status}`;
        } catch (err) {
          return `blocked: ${(err as Error).name}`;
        }
      }, { url: baseUrl, key: project.secret });
      assert(blocked === 'blocked: TypeError', `GET /contacts from another origin is blocked by the browser (${blocked})`);
    } finally {
      await own.close();
      await new Promise<void>((resolve) => shop.server.close(() => resolve()));
    }

    const events = await fetch(`${baseUrl}/events?name=viewed-pricing`, { headers: { Authorization: `Bearer ${project.secret}` } });
    const listed = (await events.json()) as { data: { name: string; contact: { email: string } | null; data: Record<string, unknown> }[] };
    assert(events.status === 200, `GET /events answers 200 (${events.status})`);
    assert(
      listed.data.length === 1 && listed.data[0].contact?.email === email && listed.data[0].data.page === '/pricing',
      `the event tracked by the page is visible through the API: ${JSON.stringify(listed.data)}`,
    );
  },
};
