import { OutboundRefused, OutboundTimedOut, type OutboundResponse } from '../../../platform/net/outbound-http';
import { retryDelayMs } from '../retry-schedule';

/** How an attempt ended, as the metric counts it (`mailroom_event_webhook_attempts_total{outcome}`). */
export type AttemptKind = 'succeeded' | 'gone' | 'http_error' | 'redirect' | 'timeout' | 'refused' | 'network_error';

export interface AttemptResult {
  kind: AttemptKind;
  ok: boolean;
  gone: boolean;
  /** Delay before the next attempt; null when none follows (succeeded, gone, or the last attempt). */
  retryInMs: number | null;
  error: string | null;
}

/** PostgreSQL text cannot hold NUL; an answer may (stored for the log without it). */
export const withoutNul = (text: string): string => (text.includes('\u0000') ? text.replace(/\u0000/g, '') : text);

/**
 * The rule of an attempt (docs/decisions.md#event-webhooks): any 2xx succeeds; a 410 fails the
 * delivery and disables the endpoint at once; anything else — another status, a 3xx (redirects
 * are not followed), a timeout, a reset, a refused address — is a failure retried on the
 * schedule until the attempts run out. `finalAttempt`: no retry whatever happens (a test).
 */
export function attemptResult(answer: { response: OutboundResponse } | { error: unknown }, attempt: number, schedule: readonly number[], finalAttempt = false): AttemptResult {
  const retry = () => (finalAttempt ? null : retryDelayMs(schedule, attempt));
  if ('response' in answer) {
    const status = answer.response.status;
    if (status >= 200 && status < 300) return { kind: 'succeeded', ok: true, gone: false, retryInMs: null, error: null };
    if (status === 410) return { kind: 'gone', ok: false, gone: true, retryInMs: null, error: 'the endpoint answered 410 Gone: it is disabled' };
    if (status >= 300 && status < 400) return { kind: 'redirect', ok: false, gone: false, retryInMs: retry(), error: `the endpoint answered ${status} (redirects are not followed)` };
    return { kind: 'http_error', ok: false, gone: false, retryInMs: retry(), error: `the endpoint answered ${status}` };
  }
  const err = answer.error;
  if (err instanceof OutboundTimedOut) return { kind: 'timeout', ok: false, gone: false, retryInMs: retry(), error: `timed out: ${err.message}` };
  if (err instanceof OutboundRefused) return { kind: 'refused', ok: false, gone: false, retryInMs: retry(), error: `refused: ${err.message}` };
  return { kind: 'network_error', ok: false, gone: false, retryInMs: retry(), error: `request failed: ${describe(err)}` };
}

/** An error's message with its code and cause (undici's "fetch failed" says little alone). */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = (err as { cause?: unknown }).cause;
  const parts = [err.message, code && !err.message.includes(code) ? `(${code})` : '', cause instanceof Error && cause.message !== err.message ? `: ${describe(cause)}` : ''];
  return parts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 500);
}
