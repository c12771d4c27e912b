import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, webhookHeaders } from './webhook-signing';

describe('webhook signing (Standard Webhooks)', () => {
  const body = JSON.stringify({ id: '0b9f7f1e-7c55-4d8c-9a4b-1f6a3c2d9e10', type: 'purchase', timestamp: '2025-01-01T00:00:00.000Z', data: { contact: null, amount: 3 } });

  it('makes secrets of the whsec_ format, 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("signs so that a receiver's stock library verifies the request", () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders([secret], 'evt-1', new Date(), body, 'Mailroom-Webhooks/0.1.0');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('signs with both secrets during a rotation: a receiver with either one verifies', () => {
    const [previous, current] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([current, previous], 'evt-2', new Date(), body, 'Mailroom-Webhooks/0.1.0');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("puts the attempt's time in webhook-timestamp (unix seconds), which the receiver checks", () => {
    const secret = newWebhookSecret();
    const old = new Date(Date.now() - 3600_000);
    const headers = webhookHeaders([secret], 'evt-3', old, body, 'ua');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(old.getTime() / 1000)));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/timestamp/i);
  });
});
