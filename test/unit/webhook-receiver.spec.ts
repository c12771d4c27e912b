import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { faults, WebhookReceiver } from '../support/webhook-receiver';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Posts a body signed the Standard Webhooks way with each of `secrets` (several: one signature each, space-separated). */
async function post(url: string, id: string, body: string, secrets: string[]) {
  const at = new Date();
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
    body,
  });
}

describe('WebhookReceiver (test support)', () => {
  it('verifies each call with the standardwebhooks package against the secrets of its path, and tallies 2xx answers by webhook-id', async () => {
    const hooks = await WebhookReceiver.start();
    try {
      const [a, b, stranger] = [newSecret(), newSecret(), newSecret()];
      hooks.secret('/a', a, b);
      hooks.respondOnce('/a', faults.status(500));
      const body = (id: string) => JSON.stringify({ id, type: 'purchase', timestamp: new Date().toISOString(), data: { contact: null } });
      expect((await post(hooks.url('/a'), 'evt_1', body('evt_1'), [a])).status).toBe(500);
      expect((await post(hooks.url('/a'), 'evt_1', body('evt_1'), [a, b])).status).toBe(200);
      expect((await post(hooks.url('/a'), 'evt_1', body('evt_1'), [b])).status).toBe(200);
      expect((await post(hooks.url('/a'), 'evt_2', body('evt_2'), [stranger])).status).toBe(200);
      await hooks.waitForCalls(4);
      const [failed, both, second, forged] = hooks.received('/a');
      expect([failed.verifiedWith, both.verifiedWith, second.verifiedWith, forged.verifiedWith]).toEqual([[a], [a, b], [b], []]);
      expect(forged).toMatchObject({ verified: false, error: 'No matching signature found', webhookId: 'evt_2' });
      expect(both.event).toMatchObject({ id: 'evt_1', type: 'purchase', data: { contact: null } });
      expect(hooks.verifies(forged, stranger)).toBe(true);
      for (const call of hooks.received()) await hooks.waitForEnd(call);
      expect(hooks.tally('/a')).toEqual({ calls: 4, verified: 3, unverified: 1, delivered: 3, distinctDelivered: 2, duplicates: 1 });
    } finally {
      await hooks.close();
    }
  });
});
