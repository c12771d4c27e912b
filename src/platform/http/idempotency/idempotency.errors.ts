import { AppError, badRequest } from '../app-error';
import type { HeldKey } from './idempotency.service';

export const malformedIdempotencyKey = () =>
  badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters', {
    suggestion: 'Use a UUID or another unique string per logical operation.',
  });

export const idempotencyKeyReused = (key: string, held: HeldKey | null) =>
  new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used: the first request took effect, and this one was not performed again', {
    details: {
      key,
      // "<METHOD> <path>", the string Plunk's clients read.
      originalRequest: held ? `${held.method} ${held.path}` : null,
      originalRequestAt: held ? held.createdAt.toISOString() : null,
      // null only while an original request recorded after its effect is still answering.
      originalStatusCode: held?.statusCode ?? null,
      // The first answer's body, so a client that lost it recovers it (e.g. the email ids).
      originalResponse: held?.response ?? null,
    },
    suggestion: 'Send a new Idempotency-Key for a new operation.',
  });
