import { request as httpRequest } from 'node:http';
import { startHttpReceiver } from '../support/http-receiver';
import { waitFor } from '../support/wait';

describe('HttpReceiver (test support)', () => {
  it('records requests and answers with configured, one-shot and default responses', async () => {
    const hooks = await startHttpReceiver();
    try {
      hooks.respond('/hook', { status: 500, body: 'nope' });
      hooks.respondOnce('/hook', { status: 503 });
      hooks.respond('/cert.pem', { body: '-----BEGIN CERTIFICATE-----', headers: { 'content-type': 'application/x-pem-file' } });
      const first = await fetch(hooks.url('/hook?x=1'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      const second = await fetch(hooks.url('/hook'), { method: 'POST', body: 'plain' });
      const cert = await fetch(hooks.url('/cert.pem'));
      const other = await fetch(hooks.url('/other'));
      expect([first.status, second.status, cert.status, other.status]).toEqual([503, 500, 200, 200]);
      expect(await cert.text()).toBe('-----BEGIN CERTIFICATE-----');
      expect(await other.json()).toEqual({ ok: true });
      const got = await hooks.waitForRequest((r) => r.path === '/hook');
      expect(got.json).toEqual({ a: 1 });
      expect(got.query.get('x')).toBe('1');
      expect(hooks.received('/hook').map((r) => r.text)).toEqual(['{"a":1}', 'plain']);
      const later = hooks.waitForRequest((r) => r.path === '/later');
      await fetch(hooks.url('/later'), { method: 'PUT' });
      expect((await later).method).toBe('PUT');
    } finally {
      await hooks.close();
    }
  });
});

describe('HttpReceiver faults (test support)', () => {
  /** A raw request that reports how it ended: the status and bytes read, or the error. */
  const call = (url: string, readBytes = Infinity, timeoutMs = 5_000) =>
    new Promise<{ status?: number; bytes: number; error?: string }>((resolve) => {
      let bytes = 0;
      const req = httpRequest(url, { method: 'POST', agent: false }, (res) => {
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes >= readBytes) {
            req.destroy();
            resolve({ status: res.statusCode, bytes });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode, bytes }));
      });
      req.setTimeout(timeoutMs, () => {
        req.destroy();
        resolve({ bytes, error: 'timeout' });
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ bytes, error: err.code ?? err.message }));
      req.end('{}');
    });

  it('hangs until the client gives up, resets, streams a huge body the client may leave, and records how each ended', async () => {
    const hooks = await startHttpReceiver();
    try {
      hooks.respond('/hang', { hang: true });
      hooks.respond('/reset', { reset: true });
      hooks.respond('/huge', { status: 500, streamBytes: 50 * 1024 * 1024 });
      hooks.respond('/moved', { status: 302, headers: { location: hooks.url('/elsewhere') } });
      expect(await call(hooks.url('/hang'), Infinity, 300)).toEqual({ bytes: 0, error: 'timeout' });
      expect(await call(hooks.url('/reset'))).toEqual({ bytes: 0, error: 'ECONNRESET' });
      const huge = await call(hooks.url('/huge'), 2048);
      expect(huge.status).toBe(500);
      expect(await call(hooks.url('/moved'))).toEqual({ status: 302, bytes: 0 });
      const ended = () => hooks.requests.every((r) => r.outcome.state !== 'pending');
      await waitFor(async () => (ended() ? true : undefined), 5_000, 20);
      const [hang, reset, streamed, moved] = hooks.requests;
      expect(hang.outcome).toMatchObject({ state: 'closed-by-client', status: null, closedAt: expect.any(Date) });
      expect(reset.outcome).toMatchObject({ state: 'reset', status: null });
      expect(streamed.outcome).toMatchObject({ state: 'closed-by-client', status: 500 });
      expect(streamed.outcome.bodyBytes).toBeLessThan(50 * 1024 * 1024);
      expect(moved.outcome).toMatchObject({ state: 'answered', status: 302 });
      expect(hooks.received('/elsewhere')).toHaveLength(0);
    } finally {
      await hooks.close();
    }
  });

  it('goes down (refused, open requests cut) and comes back on the same port', async () => {
    const hooks = await startHttpReceiver();
    try {
      const port = hooks.port;
      hooks.respond('/hang', { hang: true });
      const hanging = call(hooks.url('/hang'));
      await hooks.waitForRequest((r) => r.path === '/hang');
      await hooks.down();
      expect(hooks.listening).toBe(false);
      expect((await hanging).error).toBe('ECONNRESET');
      expect(hooks.requests[0].outcome.state).toBe('reset');
      expect(await call(hooks.url('/a'))).toEqual({ bytes: 0, error: 'ECONNREFUSED' });
      await hooks.up();
      expect(hooks.port).toBe(port);
      expect((await call(hooks.url('/a'))).status).toBe(200);
      expect(hooks.requests.at(-1)!.outcome).toMatchObject({ state: 'answered', status: 200 });
    } finally {
      await hooks.close();
    }
  });
});
