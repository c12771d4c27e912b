/** One field of a 422 (`error.errors` of the API's envelope). */
export interface ApiFieldError {
  field?: string;
  message?: string;
  code?: string;
}

/** An answer other than 2xx, or no answer at all (timeout, connection refused). */
export class MailroomApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string,
    readonly fieldErrors: ApiFieldError[] = [],
    readonly requestId?: string,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Query;
  body?: unknown;
}

/** Long enough for a send to many recipients on a busy service, short enough that an assistant is not left hanging. */
export const API_TIMEOUT_MS = 30_000;

/** A thin `fetch` client of the Mailroom API with the project's secret key. */
export class MailroomApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = API_TIMEOUT_MS,
  ) {}

  async request<T = unknown>({ method, path, query, body }: ApiRequest): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json', 'User-Agent': 'mailroom-mcp' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new MailroomApiError(`${method} ${path}: Mailroom did not answer within ${this.timeoutMs / 1000} s`, null, 'TIMEOUT');
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new MailroomApiError(`${method} ${path}: cannot reach Mailroom at ${this.baseUrl} (${cause?.code ?? cause?.message ?? (err as Error).message})`, null, 'UNREACHABLE');
    }
    const text = await res.text();
    const parsed = parseJson(text);
    if (!res.ok) throw errorFromResponse(method, path, res.status, parsed, text);
    return parsed as T;
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The spec's envelope (`{ success: false, error: { code, message, errors, … } }`) or a short `{ error: "…" }` body. */
export function errorFromResponse(method: string, path: string, status: number, body: unknown, text: string): MailroomApiError {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; errors?: unknown; requestId?: unknown; suggestion?: unknown };
    const fieldErrors = Array.isArray(e.errors)
      ? (e.errors as Record<string, unknown>[]).map((item) => ({
          field: typeof item.field === 'string' ? item.field : undefined,
          message: typeof item.message === 'string' ? item.message : undefined,
          code: typeof item.code === 'string' ? item.code : undefined,
        }))
      : [];
    return new MailroomApiError(
      typeof e.message === 'string' ? e.message : `HTTP ${status}`,
      status,
      typeof e.code === 'string' ? e.code : `HTTP_${status}`,
      fieldErrors,
      typeof e.requestId === 'string' ? e.requestId : undefined,
      typeof e.suggestion === 'string' ? e.suggestion : undefined,
    );
  }
  if (typeof error === 'string') return new MailroomApiError(error, status, `HTTP_${status}`);
  return new MailroomApiError(`${method} ${path} answered HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`, status, `HTTP_${status}`);
}
