import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MailroomApi, MailroomApiError } from './api-client';

describe('MailroomApi', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        if (req.url?.startsWith('/prefix/slow')) return; // never answers
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the key, the query (without undefined values) and a JSON body under the base path', async () => {
    const api = new MailroomApi(base, 'sk_test');
    await expect(api.request({ method: 'POST', path: '/contacts', query: { search: 'a b', limit: 5, cursor: undefined }, body: { x: 1 } })).resolves.toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/prefix/contacts?search=a+b&limit=5', auth: 'Bearer sk_test', body: '{"x":1}' });
  });

  it('gives up after its timeout', async () => {
    const api = new MailroomApi(base, 'sk_test', 200);
    await expect(api.request({ method: 'GET', path: '/slow' })).rejects.toMatchObject({ code: 'TIMEOUT', status: null, message: 'GET /slow: Mailroom did not answer within 0.2 s' });
  });

  it('says when Mailroom cannot be reached', async () => {
    const api = new MailroomApi('http://127.0.0.1:9', 'sk_test');
    const error = await api.request({ method: 'GET', path: '/segments' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailroomApiError);
    expect(error).toMatchObject({ code: 'UNREACHABLE', message: expect.stringContaining('cannot reach Mailroom at http://127.0.0.1:9') });
  });
});
