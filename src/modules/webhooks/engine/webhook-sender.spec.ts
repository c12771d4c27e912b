import type { AppConfig } from '../../../config/config';
import { encryptSecret } from '../../../platform/crypto';
import type { OutboundResponse } from '../../../platform/net/outbound-http';
import type { AttemptOutcome, ClaimedDelivery, DeliveriesStore, RecordedOutcome } from '../deliveries.store';
import type { WebhookQueue } from './webhook-queue';
import { WebhookSender } from './webhook-sender';

const APP_SECRET = 'a'.repeat(64);

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

const claimed = (id: string): ClaimedDelivery => ({
  id,
  project_id: 'p',
  endpoint_id: 'e',
  event_id: `ev-${id}`,
  kind: 'event',
  body: '{}',
  attempts: 1,
  url: `http://receiver.test/${id}`,
  secret: encryptSecret(APP_SECRET, 'webhook-secret', 'whsec_' + Buffer.alloc(32, 1).toString('base64')),
  previous_secret: null,
  previous_secret_expires_at: null,
});

/**
 * A crash repeats the attempts whose outcome was not yet committed: an outcome must be written as
 * its attempt ends, never queued behind another outcome's statement still in flight.
 */
describe('WebhookSender outcomes', () => {
  it("writes an ended attempt's outcome while another outcome's statement is still in flight", async () => {
    const answers = new Map(['a', 'b'].map((id) => [id, deferred<OutboundResponse>()]));
    const firstWrite = deferred<RecordedOutcome[]>();
    const writes: string[][] = [];
    const store = {
      claim: async (ids: string[]) => ids.map(claimed),
      recordOutcomes: (outcomes: AttemptOutcome[]) => {
        writes.push(outcomes.map((o) => o.id));
        const rows = outcomes.map((o) => ({ id: o.id, status: 'succeeded' as const, attempts: 1, next_attempt_at: null }));
        // The first statement hangs (a slow commit); the ones after it answer at once.
        return writes.length === 1 ? firstWrite.promise : Promise.resolve(rows);
      },
    } as unknown as DeliveriesStore;
    const config = { appSecret: APP_SECRET, webhookAllowPrivate: true, webhooks: { concurrency: 4, yieldMaxMs: 0, retryScheduleMs: [1_000] } } as unknown as AppConfig;
    const sender = new WebhookSender(config, store, { enqueueRetries: async () => undefined } as unknown as WebhookQueue);
    const ok: OutboundResponse = { status: 200, headers: {}, body: '', truncated: false };
    (sender as unknown as { http: { send: (r: { url: string }) => Promise<OutboundResponse> } }).http = {
      send: (r) => answers.get(r.url.split('/').pop()!)!.promise,
    };

    const job = sender.deliver(['a', 'b']);
    answers.get('a')!.resolve(ok);
    await until(() => writes.length === 1);
    // a's statement is still in flight when b's attempt ends: b's outcome goes out at once.
    answers.get('b')!.resolve(ok);
    await until(() => writes.length === 2);
    expect(writes).toEqual([['a'], ['b']]);
    firstWrite.resolve([{ id: 'a', status: 'succeeded', attempts: 1, next_attempt_at: null }]);
    await job;
  });
});
