import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_KEY = 'mailroom:idempotent';

/**
 * Honors an optional `Idempotency-Key` header on this handler (project-scoped): a repeat of a key
 * whose request took effect is 409 `IDEMPOTENCY_KEY_REUSED` with the first answer. The handler
 * passes `@IdempotencyKeyClaim()` to its service, which claims the key in the transaction that
 * writes the request's rows; a request that fails or dies before committing leaves the key free.
 */
export const Idempotent = () => SetMetadata(IDEMPOTENT_KEY, true);
