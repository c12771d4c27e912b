import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { assert, type Journey, see, until } from '../harness';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A loopback receiver that records each request and answers 200, or 500 while `failing`. */
async function startReceiver(): Promise<{ url: string; server: Server; received: Received[]; setFailing(on: boolean): void }> {
  const received: Received[] = [];
  let failing = false;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answered = failing ? 500 : 200;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered, { 'Content-Type': 'text/plain' }).end(failing ? 'receiver down for maintenance' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/mailroom`, server, received, setFailing: (on) => void (failing = on) };
}

/** The parsed body of a received request, after checking its Standard Webhooks signature with the secret. */
function verified(secret: string, request: Received): { id: string; type: string; data: Record<string, unknown> } {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new Webhook(secret).verify(request.body, headers) as { id: string; type: string; data: Record<string, unknown> };
}

/**
 * Webhooks, end to end through the dashboard: add an endpoint to a loopback receiver (the service
 * runs with WEBHOOK_ALLOW_PRIVATE=true), see and copy its secret once, send a test event, track an
 * event with the project's public key and see its delivery succeed (signed with that secret); make
 * the receiver answer 500, track another and see it pending and retried; bring the receiver back,
 * retry by hand and see it succeed. Also the status filter, an attempt's request and response,
 * disable/enable, secret rotation, replay and deletion.
 */
export const webhooksJourney: Journey = {
  name: 'webhooks',
  async run({ page, projectUrl, shot, state }) {
    const receiver = await startReceiver();
    try {
      await page.goto(projectUrl('webhooks'));
      await see(page.getByRole('heading', { name: 'No endpoints yet' }));
      await shot('empty');
      await page.getByRole('link', { name: 'Add endpoint' }).first().click();
      const form = page.getByRole('form', { name: 'New endpoint' });
      await see(form);

      // Refused first: no event picked (said by the form), then a URL the API refuses (422 at the field).
      await form.getByLabel('Endpoint URL').fill(receiver.url);
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await see(form.locator('.field-error').filter({ hasText: 'Pick at least one event.' }));
      await form.getByRole('checkbox', { name: /Every email event/ }).check();
      // Covered by email.*: shown as included, not pickable on its own.
      assert(await form.getByRole('checkbox', { name: /^Bounced/ }).isDisabled(), 'a name under a checked pattern is included by it');
      await form.getByLabel('Other event names or patterns').fill('order.paid');
      await form.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await see(form.locator('.field-error').filter({ hasText: /url/i }));
      await shot('new-refused');

      await form.getByLabel('Endpoint URL').fill(receiver.url);
      await form.getByLabel('Description (optional)').fill('Order sync');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await see(page.getByRole('heading', { name: 'Endpoint added' }));
      const secret = (await (await see(page.getByLabel('Signing secret value'))).textContent())?.trim() ?? '';
      assert(/^whsec_[A-Za-z0-9+/=]{40,}$/.test(secret), `the signing secret is shown once (${secret})`);
      await page.getByRole('button', { name: 'Copy the signing secret' }).click();
      await see(page.getByText('Copied'));
      const copied = await page.evaluate('navigator.clipboard.readText()');
      assert(copied === secret, 'the copy button puts the secret on the clipboard');
      await shot('secret-once');

      await page.getByRole('link', { name: 'I copied it: open the endpoint' }).click();
      await see(page.getByRole('heading', { name: 'Order sync' }));
      state.webhookUrl = page.url();
      assert((await page.getByText(/whsec_/).count()) === 0, 'the secret is not shown again');
      await see(page.getByRole('heading', { name: 'No deliveries yet' }));

      // A test event: delivered now, its answer shown, signed with the secret.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await see(page.getByRole('status').filter({ hasText: /Test event delivered: HTTP 200/ }));
      const test = receiver.received.at(-1);
      assert(test, 'the receiver got the test event');
      assert(verified(secret, test).type === 'webhook.test', `the test event is signed and typed webhook.test (${test.body})`);
      await shot('tested');

      // The public key, shown once by a rotation; used here by the test process only.
      await page.goto(projectUrl('settings/keys'));
      await page.getByRole('button', { name: 'Rotate keys' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate now' }).click();
      const publicKey = (await (await see(page.getByLabel('Public key', { exact: true }))).textContent())?.trim();
      assert(publicKey?.startsWith('pk_'), 'the public key is shown once');
      const track = async (n: number) => {
        const response = await fetch(new URL('/v1/track', page.url()), {
          method: 'POST',
          headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ event: 'order.paid', email: 'buyer@example.org', data: { order: n } }),
        });
        assert(response.status === 200, `POST /v1/track answers 200 (${response.status}: ${await response.text()})`);
      };

      // A tracked event reaches the receiver, signed, and its delivery succeeds in the log.
      const before = receiver.received.length;
      await track(1);
      await page.goto(state.webhookUrl as string);
      const log = page.getByRole('table', { name: 'Deliveries' });
      const rows = log.getByRole('row').filter({ hasText: 'order.paid' });
      await see(rows.filter({ has: page.locator('.badge', { hasText: /^succeeded$/ }) }), 30_000);
      const first = receiver.received.slice(before).find((r) => r.body.includes('order.paid'));
      assert(first, 'the receiver got the tracked event');
      const firstBody = verified(secret, first);
      assert(firstBody.type === 'order.paid' && firstBody.id === first.headers['webhook-id'], `the body names the event and its id is the webhook-id (${first.body})`);
      await shot('delivered');
      // The picker is fed by the project's event names: the tracked order.paid is offered now, and checked.
      await page.getByText('Endpoint settings').click();
      const settings = page.getByRole('form', { name: 'Endpoint settings' });
      assert(await (await see(settings.getByRole('checkbox', { name: /^order\.paid/ }))).isChecked(), 'the tracked event is offered, checked');
      await page.getByText('Endpoint settings').click();

      // The receiver fails: the next delivery stays pending, is retried by itself (5 s later), and says when it tries again.
      receiver.setFailing(true);
      await track(2);
      const failing = rows.filter({ has: page.locator('.badge', { hasText: /^pending$/ }) });
      await see(failing.getByText(/retrying, next attempt/), 30_000);
      await until('the automatic retry failed too (2 attempts)', async () => (await failing.getByRole('cell').nth(2).textContent())?.trim() === '2', 30_000);
      assert(receiver.received.filter((r) => r.answered === 500).length >= 2, 'the receiver answered 500 twice');
      await shot('retrying');

      // The status filter: only the pending one, then none failed.
      await page.getByLabel('Status', { exact: true }).selectOption('pending');
      // (Late email events of earlier journeys may reach the endpoint too: only pending ones are listed.)
      await until('only pending deliveries are listed', async () => {
        const statuses = await log.locator('.badge').allTextContents();
        return statuses.length > 0 && statuses.every((s) => s === 'pending') && (await failing.count()) === 1;
      });
      await shot('filter-pending');

      // An attempt's request and response.
      await failing.getByRole('link', { name: 'order.paid' }).click();
      await see(page.getByRole('heading', { name: 'Delivery of order.paid' }));
      const attempt = page.getByRole('article', { name: 'Attempt 1' });
      await see(attempt.getByRole('heading', { name: /HTTP 500/ }));
      await see(attempt.getByText('receiver down for maintenance'));
      await see(page.getByRole('region', { name: 'Request' }).getByText(/"order":\s*2/));
      await shot('attempts');

      // Back up, retried by hand: succeeded.
      receiver.setFailing(false);
      await page.getByRole('button', { name: 'Retry now' }).click();
      await see(page.getByRole('article', { name: 'Attempt 3' }).getByRole('heading', { name: /HTTP 200/ }), 20_000);
      await see(page.locator('.badge', { hasText: /^succeeded$/ }));
      await shot('retried');
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();
      await page.getByLabel('Status', { exact: true }).selectOption('succeeded');
      await until('both tracked deliveries succeeded', async () => (await rows.count()) === 2);
      await page.getByLabel('Status', { exact: true }).selectOption('failed');
      await see(page.getByRole('heading', { name: 'No failed deliveries' }));
      await page.getByLabel('Status', { exact: true }).selectOption('');

      // The list: the endpoint, its status and its last delivery.
      await page.getByRole('link', { name: 'All endpoints' }).click();
      const endpointRow = page.getByRole('table', { name: 'Endpoints' }).getByRole('row').filter({ hasText: receiver.url });
      await see(endpointRow.locator('.badge', { hasText: /^Enabled$/ }));
      await see(endpointRow.locator('.badge', { hasText: /^succeeded$/ }));
      await shot('list');
      await endpointRow.getByRole('link', { name: receiver.url }).click();

      // Disable and enable.
      await page.getByRole('button', { name: 'Disable' }).click();
      await see(page.locator('.badge', { hasText: /^Disabled$/ }));
      await page.getByRole('button', { name: 'Enable' }).click();
      await see(page.locator('.badge', { hasText: /^Enabled$/ }));

      // Rotate the secret: a new one, shown once.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate now' }).click();
      const rotated = (await (await see(page.getByLabel('Signing secret value'))).textContent())?.trim() ?? '';
      assert(rotated.startsWith('whsec_') && rotated !== secret, 'a new secret is shown');
      await shot('rotated');

      // Replay the last hour: both tracked events are sent again.
      await page.getByText('Send past events again').click();
      const replayForm = page.getByRole('form', { name: 'Replay events' });
      const hourAgo = new Date(Date.now() - 3_600_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await replayForm.getByLabel('From').fill(hourAgo);
      await replayForm.getByRole('button', { name: 'Replay events' }).click();
      await see(replayForm.getByRole('status').filter({ hasText: /events? queued to be sent again/ }));
      await shot('replayed');

      // Delete: back to the empty list.
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
      await see(page.getByRole('heading', { name: 'No endpoints yet' }));
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  },
};
