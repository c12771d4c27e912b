import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { logger } from '../logging/logger';
import { AppError, ShortBadRequest } from './app-error';
import { dataLimitMessage, sqlState } from '../database/pg-errors';
import { isServiceUnavailable } from '../database/unavailable';
import { unknownV1RouteMessage } from './plunk-paths';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'BILLING_LIMIT_EXCEEDED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

interface Rendered {
  status: number;
  code: string;
  message: string;
  extra: { errors?: unknown; details?: unknown; suggestion?: string };
  headers?: Record<string, string>;
}

/** Errors raised by Express middleware (body parsers, multer) before a handler runs. */
function fromMiddlewareError(error: unknown): Rendered | undefined {
  const raw = error as { type?: string; code?: string; message?: string; name?: string; cause?: unknown; options?: { cause?: unknown } };
  // Nest wraps body-parser errors in a BadRequestException whose cause carries the parser's type.
  const e = (raw?.type ? raw : (raw?.cause ?? raw?.options?.cause ?? raw)) as typeof raw;
  if (e?.type === 'entity.parse.failed') return { status: 400, code: 'BAD_REQUEST', message: 'Malformed JSON body', extra: {} };
  if (e?.type === 'entity.too.large' || e?.code === 'LIMIT_FILE_SIZE') {
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large', extra: {} };
  }
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: e.message ?? 'Unsupported encoding', extra: {} };
  }
  if (e?.name === 'MulterError') return { status: 400, code: 'BAD_REQUEST', message: e.message ?? 'Invalid upload', extra: {} };
  return undefined;
}

/** Duck-typed: Jest's module registry can hold a second copy of @nestjs/common. */
function isHttpException(value: unknown): value is HttpException {
  return typeof (value as HttpException)?.getStatus === 'function' && typeof (value as HttpException)?.getResponse === 'function';
}

/**
 * PostgreSQL refuses U+0000 in text (22021) and in jsonb (22P05). Endpoints reject it up front
 * where they can; this is the net for the rest: bad input is a 422, never a 500. The failed
 * statement wrote nothing (and rolled back its transaction).
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

function fromDatabaseError(error: unknown): Rendered | undefined {
  const code = sqlState(error);
  // Raised by the custom-data triggers (keysPerProject, keysPerContact).
  const limit = dataLimitMessage(error);
  if (limit) {
    return {
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      extra: {
        errors: [{ field: 'data', code: 'too_big', message: limit }],
        suggestion: 'Delete custom fields the project no longer uses (DELETE /contacts/fields/data.<key>), or keep per-contact values in fewer keys.',
      },
    };
  }
  if (typeof code !== 'string' || !UNSTORABLE_TEXT.has(code)) return undefined;
  return {
    status: 422,
    code: 'VALIDATION_ERROR',
    message: 'Request validation failed',
    extra: { errors: [{ field: 'body', code: 'invalid_string', message: 'text must not contain NUL characters (U+0000)' }] },
  };
}

/** Seconds a client should wait before retrying while a backing service is unreachable. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL or Redis unreachable: 503 with Retry-After, never 500. Every write runs in one
 * transaction (or one statement), so a request cut off by the outage wrote nothing or all.
 */
function fromOutage(error: unknown): Rendered | undefined {
  return isServiceUnavailable(error) ? OUTAGE : undefined;
}

const OUTAGE: Rendered = {
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'The service is temporarily unavailable (its database or queue cannot be reached); retry shortly',
  extra: {},
  headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
};

/** The outage answer (503 + Retry-After) for a request that ran past its deadline (`request-deadline.ts`). */
export function answerOutage(req: Request, res: Response): void {
  if (!res.headersSent) writeEnvelope(req, res, OUTAGE);
}

function writeEnvelope(req: Request, res: Response, rendered: Rendered): void {
  for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
  const error: Record<string, unknown> = {
    code: rendered.code,
    message: rendered.message,
    statusCode: rendered.status,
    requestId: req.id,
  };
  for (const [key, value] of Object.entries(rendered.extra)) if (value !== undefined) error[key] = value;
  // `message` also at the top level: Plunk's SDK and many hand-written clients read only that.
  res.status(rendered.status).json({ success: false, message: rendered.message, error, timestamp: new Date().toISOString() });
}

function render(exception: unknown): Rendered | undefined {
  if (exception instanceof AppError) {
    const { details, errors, suggestion, headers } = exception.extra;
    return { status: exception.statusCode, code: exception.code, message: exception.message, extra: { errors, details, suggestion }, headers };
  }
  const middleware = fromMiddlewareError(exception) ?? fromDatabaseError(exception) ?? fromOutage(exception);
  if (middleware) return middleware;
  if (isHttpException(exception)) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    const message =
      typeof body === 'object' && body !== null && 'message' in body
        ? [body.message].flat().join('; ')
        : exception.message;
    if (status >= 500) return undefined;
    return { status, code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message: status === 404 ? 'Not found' : message, extra: {} };
  }
  return undefined;
}

/** Nest's answer for a path no route serves (`Cannot GET /path`), as opposed to a handler's 404. */
const isRouteNotFound = (exception: unknown): boolean =>
  !(exception instanceof AppError) && isHttpException(exception) && /^Cannot [A-Z]+ /.test(exception.message);

@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    if (res.headersSent) return;
    if (exception instanceof ShortBadRequest) {
      res.status(400).json(exception.getResponse());
      return;
    }
    let rendered = render(exception);
    if (rendered?.status === 503) logger('http').warn({ err: exception, requestId: req.id, method: req.method, path: req.path }, 'a backing service is unreachable');
    if (!rendered) {
      logger('http').error({ err: exception, requestId: req.id, method: req.method, path: req.path }, 'unhandled error');
      rendered = { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'An unexpected error occurred', extra: {} };
    }
    if (rendered.status === 404 && isRouteNotFound(exception)) rendered.message = unknownV1RouteMessage(req.method, req.path, req.app) ?? rendered.message;
    writeEnvelope(req, res, rendered);
  }
}
