import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DESTINATION_NOT_ALLOWED, guardedLookup, OutboundHttp, OutboundRefused, OutboundTimedOut } from './outbound-http';

/** A loopback server answering per path; it counts the bytes it managed to write of big answers. */
async function server(): Promise<{ url: (path: string) => string; written: () => number; closed: () => boolean; stop: () => Promise<void> }> {
  let written = 0;
  let closed = false;
  const sockets = new Set<Socket>();
  const srv: Server = createServer((req, res) => {
    if (req.url === '/big') {
      // 50 MB in 64 KB chunks, written as fast as the client reads: a bounded read stops it early.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let left = 800;
      res.writeHead(200, { 'content-type': 'text/plain', 'x-test': 'big' });
      res.on('close', () => (closed = true));
      const pump = () => {
        while (left > 0) {
          left--;
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
    if (req.url === '/hang') return; // never answers
    if (req.url === '/reset') return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ method: req.method, path: req.url }));
  });
  srv.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    written: () => written,
    closed: () => closed,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}

describe('OutboundHttp', () => {
  let srv: Awaited<ReturnType<typeof server>>;
  const open = new OutboundHttp(true);
  const guarded = new OutboundHttp(false);

  beforeAll(async () => (srv = await server()));
  afterAll(async () => {
    await Promise.all([open.close(), guarded.close()]);
    await srv.stop();
  });

  it('reads at most 2 KB of a 50 MB answer and closes the connection instead of reading the rest', async () => {
    const res = await open.send({ url: srv.url('/big'), method: 'POST', headers: {}, body: '{}' }, { followRedirects: false });
    expect(res.status).toBe(200);
    expect(res.headers['x-test']).toBe('big');
    expect(Buffer.byteLength(res.body)).toBe(2048);
    expect(res.truncated).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(srv.closed()).toBe(true);
    // The server stopped well short of 50 MB: socket buffers only, not the body.
    expect(srv.written()).toBeLessThan(50 * 1024 * 1024);
  });

  it('answers the headers (lower-case, repeated ones joined) and a short body whole', async () => {
    const res = await open.send({ url: srv.url('/ok'), method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, { followRedirects: false });
    expect(res).toEqual(expect.objectContaining({ status: 200, truncated: false, body: JSON.stringify({ method: 'POST', path: '/ok' }) }));
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
  });

  it('answers a 3xx as it is when redirects are not followed (event webhooks)', async () => {
    const res = await open.send({ url: srv.url('/redirect'), method: 'POST', headers: {}, body: '{}' }, { followRedirects: false });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/ok');
  });

  it('follows a redirect when asked (the workflow step), a POST becoming a GET after a 302', async () => {
    const res = await open.send({ url: srv.url('/redirect'), method: 'POST', headers: {}, body: '{}' }, { followRedirects: true });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: 'GET', path: '/ok' });
  });

  it('ends a request that gets no answer within the timeout', async () => {
    await expect(open.send({ url: srv.url('/hang'), method: 'POST', headers: {}, body: '{}' }, { followRedirects: false, timeoutMs: 300 })).rejects.toBeInstanceOf(OutboundTimedOut);
  });

  it('fails a reset connection with an error that is neither a refusal nor a timeout', async () => {
    const err = await open.send({ url: srv.url('/reset'), method: 'POST', headers: {}, body: '{}' }, { followRedirects: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(OutboundRefused);
    expect(err).not.toBeInstanceOf(OutboundTimedOut);
  });

  it('refuses private, loopback and link-local targets unless allowed: IP literals, localhost, and names resolving to them', async () => {
    for (const url of [srv.url('/ok'), 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]:9/', 'http://169.254.169.254/latest', 'http://localhost:9/', 'http://10.0.0.1/']) {
      await expect(guarded.send({ url, method: 'POST', headers: {}, body: null }, { followRedirects: false })).rejects.toBeInstanceOf(OutboundRefused);
      await expect(guarded.send({ url, method: 'POST', headers: {}, body: null }, { followRedirects: false })).rejects.toThrow(new Error(DESTINATION_NOT_ALLOWED));
    }
  });

  it('checks a name after DNS resolution, on the addresses the socket would use (the lookup the guarded agent connects with)', async () => {
    const err = await new Promise<unknown>((resolve) => guardedLookup('localhost', { all: true }, (e) => resolve(e)));
    expect(err).toBeInstanceOf(OutboundRefused);
    // Only that the destination is not allowed: never the address the name resolved to.
    expect((err as Error).message).toBe(DESTINATION_NOT_ALLOWED);
  });

  it('refuses URLs that are not http(s)', async () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'not a url']) {
      await expect(open.send({ url, method: 'POST', headers: {}, body: null }, { followRedirects: false })).rejects.toBeInstanceOf(OutboundRefused);
    }
  });
});
