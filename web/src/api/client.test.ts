import { afterEach, describe, expect, it, vi } from 'vitest';
import { authClient, createApi, data, projectApi, serializeQuery, setUnauthorizedHandler } from './client';
import { uploadContactsCsv } from './contacts';
import { ApiError } from './errors';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), { status, headers });
}

/** The n-th request the stubbed fetch received (openapi-fetch sends a Request). */
const sent = (fetch: ReturnType<typeof vi.fn>, n = 0) => fetch.mock.calls[n][0] as Request;
const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

describe('the API client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(() => {});
  });

  it('sends the cookie, the CSRF header, the project and JSON', async () => {
    const fetch = vi.fn().mockResolvedValue(answer(201, { id: 'cnt_1' }));
    vi.stubGlobal('fetch', fetch);
    const result = await data(projectApi('proj-1').POST('/contacts', { body: { email: 'a@b.c' } }));
    expect(result).toEqual({ id: 'cnt_1' });
    const request = sent(fetch);
    expect(pathOf(request)).toBe('/contacts');
    expect(request).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(await request.text()).toBe('{"email":"a@b.c"}');
    expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(request.headers.get('X-Project-Id')).toBe('proj-1');
    expect(request.headers.get('Content-Type')).toBe('application/json');
  });

  it('fills path parameters, drops empty query values, and sends no project header on account calls', async () => {
    const fetch = vi.fn().mockImplementation(async () => answer(200, { data: [], cursor: null, hasMore: false, total: 0 }));
    vi.stubGlobal('fetch', fetch);
    await data(projectApi('p').GET('/contacts', { params: { query: { search: '', limit: 50, cursor: undefined } } }));
    expect(pathOf(sent(fetch))).toBe('/contacts?limit=50');
    await data(createApi().GET('/users/@me/projects/{id}', { params: { path: { id: 'a/b' } } }));
    expect(pathOf(sent(fetch, 1))).toBe('/users/@me/projects/a%2Fb');
    expect(sent(fetch, 1).headers.has('X-Project-Id')).toBe(false);
  });

  it('sends FormData as multipart (no JSON content type) and reads 204 as undefined', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(answer(202, { jobId: 'imp_1' })).mockResolvedValueOnce(answer(204, undefined));
    vi.stubGlobal('fetch', fetch);
    await expect(uploadContactsCsv('p', new File(['email\na@b.c'], 'x.csv'))).resolves.toEqual({ jobId: 'imp_1' });
    expect(sent(fetch).headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(await sent(fetch).text()).toContain('email\na@b.c');
    await expect(data(projectApi('p').DELETE('/contacts/{id}', { params: { path: { id: 'cnt_1' } } }))).resolves.toBeUndefined();
  });

  it('throws ApiError with the envelope, and sends a 401 to the login handler unless told not to', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const envelope = { success: false, error: { code: 'UNAUTHORIZED', message: 'A valid session is required', statusCode: 401, requestId: 'r1' } };
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => answer(401, envelope)));
    const err = await data(createApi().GET('/users/@me')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED', requestId: 'r1' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await data(authClient.POST('/auth/login', { body: { email: 'a@b.c', password: 'x' } })).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(data(projectApi('p').GET('/contacts'))).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('builds query strings without empty values', () => {
    expect(serializeQuery({ search: 'a b', subscribed: undefined, cursor: null, sort: '', limit: 50 })).toBe('search=a+b&limit=50');
    expect(serializeQuery({})).toBe('');
  });
});
