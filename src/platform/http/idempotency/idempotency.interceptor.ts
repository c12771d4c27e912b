import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { logger } from '../../logging/logger';
import { AppError } from '../app-error';
import { idempotencyKeyReused, malformedIdempotencyKey } from './idempotency.errors';
import { isValidIdempotencyKey } from './idempotency-key';
import { IdempotencyService } from './idempotency.service';
import { IDEMPOTENT_KEY } from './idempotent.decorator';

function statusOf(error: unknown): number {
  if (error instanceof AppError) return error.statusCode;
  if (typeof (error as HttpException)?.getStatus === 'function') return (error as HttpException).getStatus();
  return 500;
}

/** Applies the idempotency rule to handlers marked `@Idempotent()`; others pass straight through. */
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
    return from(this.run(projectId, key, req, res, next));
  }

  private async run(projectId: string, key: string, req: Request, res: Response, next: CallHandler): Promise<unknown> {
    const taken = await this.keys.claim(projectId, key, req.method, req.baseUrl + req.path);
    if (taken) throw idempotencyKeyReused(key, taken.held);
    let value: unknown;
    try {
      value = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      const status = statusOf(error);
      await this.settle(projectId, key, status);
      throw error;
    }
    await this.settle(projectId, key, res.statusCode);
    return value;
  }

  /** 4xx: the request did nothing, so the key is free again; 2xx/5xx: the key stays spent. */
  private async settle(projectId: string, key: string, status: number): Promise<void> {
    try {
      if (status >= 400 && status < 500) await this.keys.release(projectId, key);
      else await this.keys.complete(projectId, key, status);
    } catch (err) {
      this.log.error({ err, projectId }, 'recording the idempotency outcome failed');
    }
  }
}
