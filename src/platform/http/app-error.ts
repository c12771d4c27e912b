import { HttpException } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
  code: string;
  received?: unknown;
}

export interface AppErrorOptions {
  details?: Record<string, unknown>;
  errors?: FieldError[];
  suggestion?: string;
  headers?: Record<string, string>;
}

/** Every deliberate error: rendered by the global filter as the spec's envelope. */
export class AppError extends HttpException {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: AppErrorOptions = {},
  ) {
    super(message, statusCode);
  }
}

/** The spec's short `{ "error": "<message>" }` 400 body, used only where the spec names it. */
export class ShortBadRequest extends HttpException {
  constructor(message: string) {
    super({ error: message }, 400);
  }
}

export const badRequest = (message: string, options?: AppErrorOptions) => new AppError(400, 'BAD_REQUEST', message, options);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'UNAUTHORIZED', message);
export const invalidApiKey = (message = 'Invalid API key') =>
  new AppError(401, 'INVALID_API_KEY', message, { suggestion: 'Send Authorization: Bearer <secret key> (sk_…); /v1/track also takes the public key (pk_…).' });
export const forbidden = (message = 'Not allowed', options?: AppErrorOptions) => new AppError(403, 'FORBIDDEN', message, options);
export const notFound = (resource: string) => new AppError(404, 'NOT_FOUND', `${resource} not found`);
export const conflict = (message: string, options?: AppErrorOptions) => new AppError(409, 'CONFLICT', message, options);

/** 422 with one item per field; `field` uses dotted paths (`to[1].email`). */
export const validationError = (errors: FieldError[], message = 'Request validation failed') =>
  new AppError(422, 'VALIDATION_ERROR', message, { errors });
