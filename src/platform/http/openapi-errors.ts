import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** The error envelope every 4xx and 5xx answer uses (spec section 4), one schema the operations reference. */
export const ERROR_ENVELOPE_NAME = 'ErrorEnvelope';
export const ERROR_ENVELOPE_REF = `#/components/schemas/${ERROR_ENVELOPE_NAME}`;

export const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'message', 'error', 'timestamp'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    message: { type: 'string', description: "Same text as error.message, for clients (Plunk's SDK) that read it here", example: 'Request validation failed' },
    error: {
      type: 'object',
      required: ['code', 'message', 'statusCode', 'requestId'],
      properties: {
        code: { type: 'string', description: 'Stable error code, e.g. VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED', example: 'VALIDATION_ERROR' },
        message: { type: 'string' },
        statusCode: { type: 'integer' },
        requestId: { type: 'string', description: 'Also in the X-Request-ID response header and the logs' },
        errors: {
          type: 'array',
          description: 'One item per invalid field (422)',
          items: {
            type: 'object',
            required: ['field', 'message', 'code'],
            properties: {
              field: { type: 'string', description: 'Dotted path, e.g. to[1].email' },
              message: { type: 'string' },
              code: { type: 'string', description: 'invalid_type, invalid_string, required, too_big, too_small, too_deep, unrecognized_keys, …' },
              received: { description: 'The value received (clipped)' },
            },
          },
        },
        details: { type: 'object', additionalProperties: true },
        suggestion: { type: 'string', description: 'What to do about it' },
      },
    },
    timestamp: { type: 'string', format: 'date-time' },
  },
} as const;

/** The error statuses the API answers with, and what each means wherever it appears. */
export const ERROR_STATUSES = {
  400: 'Malformed request (BAD_REQUEST)',
  401: 'Missing or invalid credentials (UNAUTHORIZED, INVALID_API_KEY)',
  402: 'A billing limit of the project is reached (BILLING_LIMIT_EXCEEDED)',
  403: 'Not allowed (FORBIDDEN)',
  404: 'Not found in this project (NOT_FOUND)',
  409: 'Conflicts with the current state (CONFLICT)',
  413: 'Request body too large (PAYLOAD_TOO_LARGE)',
  415: 'Unsupported media type (UNSUPPORTED_MEDIA_TYPE)',
  422: 'Validation failed (VALIDATION_ERROR): one item per field in error.errors',
  429: 'Too many requests for the project this minute (RATE_LIMIT_EXCEEDED); wait for Retry-After',
  503: 'The database or the queue cannot be reached (SERVICE_UNAVAILABLE); retry after Retry-After',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUSES;

/** One error response in the envelope, for an operation's `responses`. */
export function errorResponse(status: ErrorStatus, description: string = ERROR_STATUSES[status]) {
  return { description, content: { 'application/json': { schema: { $ref: ERROR_ENVELOPE_REF } } } };
}

/**
 * The error answers a route gives beyond those its access declaration implies (401, the CSRF
 * 403 of cookie writes, 429 and 503 are added from `@SecretKey()`/`@Session()`… when the
 * document is built, platform/http/openapi.ts). A status alone uses the standard description;
 * `[409, 'while SENDING']` says when.
 *
 *   @ApiErrors(404, 422)
 *   @ApiErrors(404, [409, 'While the campaign is SCHEDULED or SENDING'])
 */
export const ApiErrors = (...errors: Array<ErrorStatus | [ErrorStatus, string]>) =>
  applyDecorators(
    ...errors.map((e) => {
      const [status, description] = Array.isArray(e) ? e : [e, ERROR_STATUSES[e]];
      return ApiResponse({ status, description, schema: { $ref: ERROR_ENVELOPE_REF } });
    }),
  );

/** The spec's short `{ "error": "<message>" }` 400 (`ShortBadRequest`), where the spec names it. */
export const SHORT_ERROR_NAME = 'ShortError';
export const SHORT_ERROR = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'What is missing, e.g. "name is required"' } },
} as const;

export const ApiShortBadRequest = (description: string) => ApiResponse({ status: 400, description, schema: { $ref: `#/components/schemas/${SHORT_ERROR_NAME}` } });
