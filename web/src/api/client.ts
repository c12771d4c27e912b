import { ApiError, networkError, parseApiError } from './errors';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body (objects) or multipart (FormData, e.g. CSV import). */
  body?: unknown;
  /** Added to the URL; undefined, null and '' values are left out. */
  query?: Record<string, QueryValue>;
  /** Project routes (contacts, templates, …) take the project from this header with a session. */
  projectId?: string;
  /** false on the login form: its 401 means "wrong password", not "session expired". */
  redirectOn401?: boolean;
  signal?: AbortSignal;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** main.tsx registers the redirect to the login page (with the way back) here. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * The one way the dashboard talks to the API: same origin, the session cookie, and
 * `X-Requested-With` (the API's CSRF rule for cookie-authenticated writes). Answers are parsed
 * JSON (undefined for 204); failures throw ApiError. No API key is ever sent or kept.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  if (options.projectId) headers['X-Project-Id'] = options.projectId;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkError(err);
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const error = parseApiError(response.status, parsed, response.headers.get('X-Request-ID') ?? undefined);
    if (response.status === 401 && options.redirectOn401 !== false) onUnauthorized();
    throw error;
  }
  return parsed as T;
}

/** Shorthands bound to one project (the current one, from `useApi()`), or to none. */
export interface ApiClient {
  get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body?: unknown): Promise<T>;
  del<T = void>(path: string, body?: unknown): Promise<T>;
}

export function apiClient(projectId?: string): ApiClient {
  return {
    get: (path, query, signal) => apiRequest(path, { query, projectId, signal }),
    post: (path, body) => apiRequest(path, { method: 'POST', body: body ?? {}, projectId }),
    put: (path, body) => apiRequest(path, { method: 'PUT', body: body ?? {}, projectId }),
    patch: (path, body) => apiRequest(path, { method: 'PATCH', body: body ?? {}, projectId }),
    del: (path, body) => apiRequest(path, { method: 'DELETE', body, projectId }),
  };
}

export { ApiError };
