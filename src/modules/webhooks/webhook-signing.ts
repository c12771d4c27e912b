import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of
 * "<msgId>.<unix seconds>.<body>">` per secret, space-separated (two during a rotation), so a
 * receiver holding either secret verifies it with the stock library.
 */
export function signatureHeader(secrets: readonly string[], msgId: string, at: Date, body: string): string {
  return secrets.map((secret) => signer(secret).sign(msgId, at, body)).join(' ');
}

/** A signer per secret (it holds the decoded key), a few hundred kept. */
const signers = new Map<string, Webhook>();
function signer(secret: string): Webhook {
  let webhook = signers.get(secret);
  if (!webhook) {
    if (signers.size >= 500) signers.delete(signers.keys().next().value!);
    signers.set(secret, (webhook = new Webhook(secret)));
  }
  return webhook;
}

/** Headers of one attempt: `webhook-timestamp` is the attempt's time, `webhook-id` the event's id (stable across attempts and endpoints). */
export function webhookHeaders(secrets: readonly string[], msgId: string, at: Date, body: string, userAgent: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, msgId, at, body),
  };
}
