import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { clampLimit, type CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../../platform/http/pagination';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { type Principal, requireManager } from '../../auth';
import { isContactId } from '../../events';
import { contactNotFound } from '../contacts.errors';
import { erasureJobIds } from '../import/job-id';
import { type ErasureListItemResponse, type ErasureQueuedResponse, type ErasureResponse, toErasureListItem, toErasureResponse } from './dto/erasure.response';
import { erasureNotFound } from './erasure.errors';
import { ErasuresRepository } from './erasures.repository';
import type { ErasureRequester } from './erasures.rows';

/**
 * Contact erasures (docs/personal-data.md, "Erasure"): record the request (one unfinished erasure
 * per contact), queue it, report on it. OWNER and ADMIN sessions and the secret key only.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly erasures: ErasuresRepository,
    @InjectQueue(QUEUES.contactErasure) private readonly queue: Queue<JobPayloads['contact-erasure']>,
  ) {}

  async request(principal: Principal, projectId: string, contactId: string): Promise<ErasureQueuedResponse> {
    requireManager(principal);
    if (!isContactId(contactId)) throw contactNotFound();
    const found = await this.erasures.createOrFind(projectId, contactId, requesterOf(principal));
    if (!found) throw contactNotFound();
    const { row, created } = found;
    // Queued again for an existing one too: a lost queue job is replaced, a live one is kept (same job id).
    try {
      await this.queue.add('erase', { projectId, erasureId: row.id }, { jobId: `erasure-${row.id}` });
    } catch (err) {
      if (created) await this.erasures.remove(projectId, row.id);
      throw err;
    }
    return { jobId: erasureJobIds.toWire(row.id), status: row.status };
  }

  async get(principal: Principal, projectId: string, wireId: string): Promise<ErasureResponse> {
    requireManager(principal);
    const id = erasureJobIds.fromWire(wireId);
    if (!id) throw erasureNotFound();
    const row = await this.erasures.find(projectId, id);
    if (!row) throw erasureNotFound();
    return toErasureResponse(row);
  }

  /** Newest first, a cursor list (`total` on the first page). */
  async list(principal: Principal, projectId: string, query: { limit?: string; cursor?: string }): Promise<CursorPage<ErasureListItemResponse>> {
    requireManager(principal);
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const { rows, total } = await this.erasures.page(projectId, cursor, limit, !cursor);
    return cursorPage(rows, limit, toErasureListItem, (last) => ({ v: last.requested_key, id: last.id }), total);
  }
}

/** A session acts as its user, a secret-key call as the key (by its id), as the audit log names them. */
function requesterOf(principal: Principal): ErasureRequester {
  if (principal.via === 'session' && principal.userId) return { type: 'user', id: principal.userId };
  return { type: 'key', id: principal.keyId ?? 'secret_key' };
}
