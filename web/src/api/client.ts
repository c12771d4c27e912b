import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { ApiError, networkError, parseApiError } from './errors';
import type { paths } from './schema';

/**
 * The API, typed from the service's OpenAPI document (`schema.d.ts`, `npm run api:types`):
 * `api.GET('/contacts/{id}', { params: { path: { id } } })`. Wrap a call in `data()` to get
 * its answer; failures never come back as values, they throw ApiError.
 */
export type Api = Client<paths>;

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** main.tsx registers the redirect to the login page (with the way back) here. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/** The query string of a call; undefined, null and '' values are left out (an empty search is no search). */
export function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  return params.toString();
}

/** Turns every non-2xx answer into a thrown ApiError, and a failed connection into status 0. */
function apiErrors(redirectOn401: boolean): Middleware {
  return {
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const text = await response.clone().text();
      let parsed: unknown = undefined;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      const error = parseApiError(response.status, parsed, response.headers.get('X-Request-ID') ?? undefined);
      if (response.status === 401 && redirectOn401) onUnauthorized();
      throw error;
    },
    onError({ error }) {
      if (error instanceof DOMException && error.name === 'AbortError') return undefined;
      return networkError(error);
    },
  };
}

export interface ApiOptions {
  /** Project routes (contacts, templates, …) take the project from this header with a session. */
  projectId?: string;
  /** false on the login form: its 401 means "wrong password", not "session expired". */
  redirectOn401?: boolean;
}

/**
 * The one way the dashboard talks to the API: same origin, the session cookie, and
 * `X-Requested-With` (the API's CSRF rule for cookie-authenticated writes). No API key is ever
 * sent or kept.
 */
export function createApi({ projectId, redirectOn401 = true }: ApiOptions = {}): Api {
  const api = createClient<paths>({
    credentials: 'include',
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-Project-Id': projectId },
    querySerializer: serializeQuery,
    // Looked up at each call rather than captured once, so a replaced fetch (tests) is the one used.
    fetch: (request) => globalThis.fetch(request),
  });
  api.use(apiErrors(redirectOn401));
  return api;
}

type Answer<R> = R extends { data?: infer D } ? Exclude<D, undefined> : never;

/** The answer of a call (undefined for 204); a failed call has already thrown ApiError. */
export async function data<R extends { data?: unknown }>(call: Promise<R>): Promise<[Answer<R>] extends [never] ? void : Answer<R>> {
  return (await call).data as never;
}

/** Account-level calls (no project header). */
export const accountClient = createApi();
/** Calls whose 401 is an answer, not a lost session (login, signup, password reset). */
export const authClient = createApi({ redirectOn401: false });

/** The typed client bound to one project (the current one, from `useApi()`). */
export function projectApi(projectId: string): Api {
  return createApi({ projectId });
}

export { ApiError };
