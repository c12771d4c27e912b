import { AppError, badRequest } from '../app-error';
import type { HeldKey } from './idempotency.service';

export const malformedIdempotencyKey = () =>
  badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters', {
    suggestion: 'Use a UUID or another unique string per logical operation.',
  });

export const idempotencyKeyReused = (key: string, held: HeldKey | null) =>
  new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used; the request was not performed again', {
    details: {
      key,
      // "<METHOD> <path>", the string Plunk's clients read.
      originalRequest: held ? `${held.method} ${held.path}` : null,
      originalRequestAt: held ? held.createdAt.toISOString() : null,
      // null while the original request is still in flight.
      originalStatusCode: held?.statusCode ?? null,
    },
    suggestion: 'Send a new Idempotency-Key for a new operation.',
  });
