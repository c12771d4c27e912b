import { Injectable } from '@nestjs/common';
import { clampLimit, type CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import type { FieldError } from '../../platform/http/app-error';
import { logger } from '../../platform/logging/logger';
import { appMetrics } from '../../platform/metrics/metrics';
import { type Principal, requireManager, UsersService } from '../auth';
import { AUDIT_RETENTION_DAYS } from './audit-actions';
import type { AuditedCall, AuditedSpec } from './audited.decorator';
import { auditWindowInvalid } from './audit.errors';
import { AuditLogRepository } from './audit-log.repository';
import type { AuditFilter, NewAuditEntry } from './audit-log.rows';
import { type AuditEntryResponse, toAuditEntryResponse } from './dto/audit-entry.response';
import type { ListAuditLogQuery } from './dto/list-audit-log.query';

const DAY_MS = 24 * 3600_000;

/**
 * A project's audit log: the entry of each `@Audited` call that succeeded (written by the audit
 * interceptor through `recordCall`), the list for OWNER and ADMIN, and the purge of entries past
 * `AUDIT_RETENTION_DAYS`.
 */
@Injectable()
export class AuditLogService {
  private readonly log = logger('audit');

  constructor(
    private readonly repository: AuditLogRepository,
    private readonly users: UsersService,
  ) {}

  /**
   * Writes the entry of a call that succeeded. It never throws: the action already happened, and
   * answering it with an error would have the client repeat it. An entry that cannot be written is
   * logged in full at error level (and counted), so it can be restored by hand.
   */
  async recordCall(spec: AuditedSpec, call: AuditedCall): Promise<void> {
    let entry: NewAuditEntry | null = null;
    try {
      entry = await this.entryOf(spec, call);
      if (entry) await this.repository.insert(entry);
    } catch (err) {
      appMetrics.auditWriteFailure();
      this.log.error({ err, requestId: call.req.id, action: spec.action, entry }, 'the audit log entry of a succeeded action was not written');
    }
  }

  /** The entry of the call; null when it changed nothing (an empty `changes`). Throws when the declaration does not fit the call. */
  private async entryOf(spec: AuditedSpec, call: AuditedCall): Promise<NewAuditEntry | null> {
    const changes = spec.changes ? spec.changes(call) : null;
    if (changes !== null && changes.length === 0) return null;
    const principal = call.req.user as Principal | undefined;
    const projectId = spec.project ? spec.project(call) : principal?.projectId;
    const targetId = spec.target.id(call);
    if (!principal || !projectId || !targetId) throw new Error(`@Audited('${spec.action}') found no ${!principal ? 'principal' : !projectId ? 'project' : 'target id'} in the call`);
    return { projectId, ...(await this.actorOf(principal)), action: spec.action, targetType: spec.target.type, targetId, changes, ip: call.req.ip ?? null };
  }

  /** A session acts as its user (with the address it has now); a key call as the project's secret key, by its id. */
  private async actorOf(principal: Principal): Promise<Pick<NewAuditEntry, 'actorType' | 'actorId' | 'actorEmail'>> {
    if (principal.via === 'session' && principal.userId) {
      const email = (await this.users.emailsOf([principal.userId])).get(principal.userId) ?? null;
      return { actorType: 'user', actorId: principal.userId, actorEmail: email };
    }
    if (principal.via === 'secret_key' && principal.keyId) return { actorType: 'key', actorId: principal.keyId, actorEmail: null };
    throw new Error(`an audited call by ${principal.via} names no actor`);
  }

  /** Newest first, a cursor list (`total` on the first page); OWNER and ADMIN (a session below is 403), or the secret key. */
  async list(principal: Principal, projectId: string, query: ListAuditLogQuery): Promise<CursorPage<AuditEntryResponse>> {
    requireManager(principal);
    const limit = clampLimit(query.limit);
    const filter = filterOf(query);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const { rows, total } = await this.repository.page(projectId, filter, cursor, limit, !cursor);
    return cursorPage(rows, limit, toAuditEntryResponse, (last) => ({ v: last.atKey, id: last.id }), total);
  }

  /** Deletes up to `batch` entries past the retention (oldest first, across projects); how many went. */
  purgeExpired(batch: number, now = new Date()): Promise<number> {
    return this.repository.purgeOlderThan(new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS), batch);
  }
}

/** The query's filters; a date outside years 1–9999, or `from` after `to`, is a 422 naming the field. */
export function filterOf(query: Pick<ListAuditLogQuery, 'action' | 'actorId' | 'from' | 'to'>): AuditFilter {
  const errors: FieldError[] = [];
  const bound = (field: 'from' | 'to'): Date | undefined => {
    const text = query[field];
    if (text === undefined) return undefined;
    const date = new Date(text);
    const year = date.getUTCFullYear();
    if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
      errors.push({ field, code: 'invalid_string', message: `${field} must be a date between the years 1 and 9999`, received: text });
      return undefined;
    }
    return date;
  };
  const from = bound('from');
  const to = bound('to');
  if (from && to && from.getTime() > to.getTime()) errors.push({ field: 'to', code: 'too_small', message: 'to must not be before from', received: query.to });
  if (errors.length) throw auditWindowInvalid(errors);
  return { action: query.action, actorId: query.actorId?.toLowerCase(), from, to };
}
