/** One field-level problem of a 422 (`error.errors[]` of the API's envelope). */
export interface FieldProblem {
  field: string;
  message: string;
  code?: string;
}

/**
 * Every failed API call becomes an ApiError: the HTTP status, the envelope's machine code and
 * human message, and the field it names (the first of `errors[]`, or the subject of the short
 * `{error: "<field> is required"}` 400 body). `status` 0 means the request never got an answer.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly fieldErrors: FieldProblem[];
  readonly requestId: string | undefined;
  readonly suggestion: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    field?: string;
    fieldErrors?: FieldProblem[];
    requestId?: string;
    suggestion?: string;
    details?: Record<string, unknown>;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fieldErrors = init.fieldErrors ?? [];
    this.field = init.field ?? this.fieldErrors[0]?.field;
    this.requestId = init.requestId;
    this.suggestion = init.suggestion;
    this.details = init.details;
  }

  /** The message for one form field: the 422 item naming it (or a child such as `data.plan`). */
  messageFor(field: string): string | undefined {
    const exact = this.fieldErrors.find((e) => e.field === field);
    if (exact) return exact.message;
    const nested = this.fieldErrors.find((e) => e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`));
    if (nested) return `${nested.field}: ${nested.message}`;
    if (this.fieldErrors.length === 0 && this.field === field) return this.message;
    return undefined;
  }
}

const STATUS_WORDS: Record<number, string> = {
  400: 'The request was not accepted',
  401: 'You are signed out',
  402: 'The billing limit is reached',
  403: 'You are not allowed to do this',
  404: 'Not found',
  409: 'This conflicts with the current state',
  413: 'The file is too large',
  415: 'This file type is not supported',
  422: 'Some values are not valid',
  429: 'Too many requests: wait a moment and try again',
  500: 'The server failed to answer',
  502: 'An upstream service failed',
  503: 'The service is unavailable',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function fieldProblems(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): FieldProblem[] => {
    if (!isRecord(item)) return [];
    const field = asString(item.field) ?? '';
    const message = asString(item.message) ?? 'is not valid';
    return [{ field, message, code: asString(item.code) }];
  });
}

/**
 * Reads whatever the API answered with a non-2xx status: the envelope
 * `{success:false, error:{code, message, statusCode, requestId, errors, details, suggestion}}`,
 * the short `{error: "<message>"}` body, or anything else (plain text, an HTML proxy page).
 */
export function parseApiError(status: number, body: unknown, requestId?: string): ApiError {
  if (isRecord(body) && isRecord(body.error)) {
    const e = body.error;
    const fieldErrors = fieldProblems(e.errors);
    const details = isRecord(e.details) ? e.details : undefined;
    return new ApiError({
      status,
      code: asString(e.code) ?? `HTTP_${status}`,
      message: asString(e.message) ?? STATUS_WORDS[status] ?? `Request failed (${status})`,
      fieldErrors,
      field: fieldErrors[0]?.field || asString(details?.field),
      requestId: asString(e.requestId) ?? requestId,
      suggestion: asString(e.suggestion),
      details,
    });
  }
  if (isRecord(body) && typeof body.error === 'string') {
    // decisions.md: `{error}` 400 bodies for missing required input, e.g. "from is required".
    const named = /^([A-Za-z][\w.]*) (?:is|are) required/.exec(body.error);
    return new ApiError({ status, code: status === 400 ? 'BAD_REQUEST' : `HTTP_${status}`, message: body.error, field: named?.[1], requestId });
  }
  const text = typeof body === 'string' ? body.trim() : '';
  const readable = text && text.length <= 300 && !text.startsWith('<') ? text : undefined;
  return new ApiError({ status, code: `HTTP_${status}`, message: readable ?? STATUS_WORDS[status] ?? `Request failed (${status})`, requestId });
}

/** A network failure (offline, server down, CORS): no status at all. */
export function networkError(cause: unknown): ApiError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `Could not reach the server (${reason}). Check your connection and try again.` });
}

/** Words for any thrown value, for places that show an error without a field. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
