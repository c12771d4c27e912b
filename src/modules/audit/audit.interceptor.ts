import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { mergeMap, Observable } from 'rxjs';
import { AuditLogService } from './audit-log.service';
import { AUDITED_KEY, type AuditedSpec } from './audited.decorator';

/**
 * The one writer of the audit log: after a handler marked `@Audited(…)` succeeds, its entry is
 * written before the answer goes out (a failed call, a thrown error, records nothing). A failed
 * write is logged and counted, never turned into an error: the action stands (docs/audit-log.md).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = context.getType() === 'http' ? this.reflector.get<AuditedSpec | undefined>(AUDITED_KEY, context.getHandler()) : undefined;
    if (!spec) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      mergeMap(async (result: unknown) => {
        await this.audit.recordCall(spec, { req, result });
        return result;
      }),
    );
  }
}
