import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_KEY = 'mailroom:idempotent';

/**
 * Honors an optional `Idempotency-Key` header on this handler (project-scoped): the key is held
 * from the start of the request, a repeat is 409 `IDEMPOTENCY_KEY_REUSED`, a 4xx outcome
 * releases it, 2xx and 5xx keep it until it expires.
 */
export const Idempotent = () => SetMetadata(IDEMPOTENT_KEY, true);
