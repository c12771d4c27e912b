import { OutboundRefused, OutboundTimedOut } from '../../../platform/net/outbound-http';
import { attemptResult, withoutNul } from './attempt-outcome';

const schedule = [5_000, 300_000];
const answer = (status: number) => ({ response: { status, headers: {}, body: '', truncated: false } });

describe('attemptResult', () => {
  it('succeeds on any 2xx', () => {
    for (const status of [200, 201, 204, 299]) expect(attemptResult(answer(status), 1, schedule)).toEqual({ kind: 'succeeded', ok: true, gone: false, retryInMs: null, error: null });
  });

  it('ends a delivery on 410 and says the endpoint is gone', () => {
    expect(attemptResult(answer(410), 1, schedule)).toEqual(expect.objectContaining({ kind: 'gone', ok: false, gone: true, retryInMs: null }));
  });

  it('retries other statuses, 3xx, timeouts, refusals and network errors on the schedule, then gives up', () => {
    const failures = [answer(500), answer(404), answer(429), answer(302), { error: new OutboundTimedOut(10_000) }, { error: new OutboundRefused('127.0.0.1 is a private address') }, { error: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }];
    for (const f of failures) {
      expect(attemptResult(f, 1, schedule)).toEqual(expect.objectContaining({ ok: false, gone: false, retryInMs: 5_000, error: expect.any(String) }));
      expect(attemptResult(f, 2, schedule).retryInMs).toBe(300_000);
      expect(attemptResult(f, 3, schedule).retryInMs).toBeNull();
      expect(attemptResult(f, 1, schedule, true).retryInMs).toBeNull();
    }
    expect(attemptResult(answer(302), 1, schedule).kind).toBe('redirect');
    expect(attemptResult({ error: new OutboundTimedOut(10_000) }, 1, schedule).kind).toBe('timeout');
    expect(attemptResult({ error: new OutboundRefused('x') }, 1, schedule).kind).toBe('refused');
    expect(attemptResult({ error: new Error('reset') }, 1, schedule).kind).toBe('network_error');
  });

  it('strips NUL characters PostgreSQL text cannot hold', () => {
    expect(withoutNul('a\u0000b')).toBe('ab');
    expect(withoutNul('plain')).toBe('plain');
  });
});
