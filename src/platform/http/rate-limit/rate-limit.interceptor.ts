import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { CounterStore } from './counter-store';
import { hitProjectBudget } from './project-rate-limit';
import { rateLimitExceeded } from './rate-limit.errors';

/**
 * The per-project request budget. An interceptor, so it runs after every guard: only requests
 * that resolved to a project (API key, or session with X-Project-Id) are counted.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly counters: CounterStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const projectId = (req.user as { projectId?: string } | undefined)?.projectId;
    if (!projectId) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.consume(projectId, res)).pipe(switchMap(() => next.handle()));
  }

  private async consume(projectId: string, res: Response): Promise<void> {
    const { limit, count, resetMs, exceeded } = await hitProjectBudget(this.counters, this.config, projectId);
    const reset = String(Math.max(1, Math.ceil(resetMs / 1000)));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - count)),
      'RateLimit-Reset': reset,
    };
    if (exceeded) throw rateLimitExceeded({ ...headers, 'Retry-After': reset });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  }
}
