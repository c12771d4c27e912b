import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * A request's `Idempotency-Key`, to be claimed by the handler's service inside the transaction
 * that writes the request's rows (`IdempotencyService.claimIn`, `recordIn`).
 */
export interface IdempotencyClaim {
  projectId: string;
  key: string;
  /** `POST`, and the path as requested: the 409's `originalRequest`. */
  method: string;
  path: string;
  /** Set once the answer is stored; the interceptor records a claim its handler left unrecorded. */
  recorded?: boolean;
}

const CLAIM = Symbol('idempotencyClaim');

export const attachClaim = (req: Request, claim: IdempotencyClaim): void => {
  (req as unknown as Record<symbol, IdempotencyClaim>)[CLAIM] = claim;
};

/** The handler's claim (undefined without an `Idempotency-Key`), set by the interceptor of `@Idempotent()`. */
export const IdempotencyKeyClaim = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): IdempotencyClaim | undefined => (ctx.switchToHttp().getRequest<Request>() as unknown as Record<symbol, IdempotencyClaim | undefined>)[CLAIM],
);
