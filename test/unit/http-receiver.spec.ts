import { startHttpReceiver } from '../support/http-receiver';

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
