import { createHmac } from 'node:crypto';

/** `X-Signature` value of a WEBHOOK step's request: `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the project's webhook secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
