import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClient, apiRequest, buildUrl, setUnauthorizedHandler } from './client';
import { ApiError } from './errors';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), { status, headers });
}

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(() => {});
  });

  it('sends the cookie, the CSRF header, the project and JSON', async () => {
    const fetch = vi.fn().mockResolvedValue(answer(201, { id: 'cnt_1' }));
    vi.stubGlobal('fetch', fetch);
    const result = await apiClient('proj-1').post('/contacts', { email: 'a@b.c' });
    expect(result).toEqual({ id: 'cnt_1' });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/contacts');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"email":"a@b.c"}' });
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'X-Project-Id': 'proj-1', 'Content-Type': 'application/json' });
  });

  it('sends FormData as multipart (no JSON content type) and reads 204 as undefined', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(answer(202, { jobId: 'imp_1' })).mockResolvedValueOnce(answer(204, undefined));
    vi.stubGlobal('fetch', fetch);
    const form = new FormData();
    form.append('file', new Blob(['email\na@b.c']), 'x.csv');
    await apiRequest('/contacts/import', { method: 'POST', body: form, projectId: 'p' });
    expect(fetch.mock.calls[0][1].body).toBe(form);
    expect(fetch.mock.calls[0][1].headers['Content-Type']).toBeUndefined();
    await expect(apiClient('p').del('/contacts/cnt_1')).resolves.toBeUndefined();
  });

  it('throws ApiError with the envelope, and sends a 401 to the login handler unless told not to', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const envelope = { success: false, error: { code: 'UNAUTHORIZED', message: 'A valid session is required', statusCode: 401, requestId: 'r1' } };
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => answer(401, envelope)));
    const err = await apiRequest('/users/@me').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED', requestId: 'r1' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await apiRequest('/auth/login', { method: 'POST', body: {}, redirectOn401: false }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiRequest('/contacts')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('/contacts', { search: 'a b', subscribed: undefined, cursor: null, sort: '', limit: 50 })).toBe('/contacts?search=a+b&limit=50');
    expect(buildUrl('/contacts')).toBe('/contacts');
  });
});
