import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { logger } from '../../logging/logger';
import { attachClaim, IdempotencyClaim } from './idempotency-claim';
import { idempotencyKeyReused, malformedIdempotencyKey } from './idempotency.errors';
import { isValidIdempotencyKey } from './idempotency-key';
import { IdempotencyService } from './idempotency.service';
import { IDEMPOTENT_KEY } from './idempotent.decorator';

/**
 * Applies the idempotency rule to handlers marked `@Idempotent()`; others pass straight through.
 * A key already claimed is 409 at once; otherwise the handler's service claims it in its own
 * write transaction (`IdempotencyKeyClaim`), so only a committed effect ever holds a key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly log = logger('idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.reflector.get<boolean>(IDEMPOTENT_KEY, context.getHandler())) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.header('idempotency-key');
    const projectId = (req.user as { projectId?: string } | undefined)?.projectId;
    if (key === undefined || !projectId) return next.handle();
    if (!isValidIdempotencyKey(key)) throw malformedIdempotencyKey();
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.run({ projectId, key, method: req.method, path: req.baseUrl + req.path }, req, res, next));
  }

  private async run(claim: IdempotencyClaim, req: Request, res: Response, next: CallHandler): Promise<unknown> {
    const taken = await this.keys.find(claim.projectId, claim.key);
    if (taken) throw idempotencyKeyReused(claim.key, taken);
    attachClaim(req, claim);
    const value = await lastValueFrom(next.handle(), { defaultValue: undefined });
    if (!claim.recorded) {
      try {
        await this.keys.recordAfter(claim, res.statusCode, value);
      } catch (err) {
        this.log.error({ err, projectId: claim.projectId }, 'recording the idempotency outcome failed');
      }
    }
    return value;
  }
}
