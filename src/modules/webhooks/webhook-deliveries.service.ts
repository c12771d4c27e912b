import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Principal, requireManager } from '../auth';
import { clampLimit, type CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { DeliveriesStore } from './deliveries.store';
import { type DeliveryDetailResponse, type DeliveryResponse, toDeliveryDetailResponse, toDeliveryResponse } from './dto/delivery.response';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { REPLAY_MAX_AGE_MS, REPLAY_MAX_DELIVERIES, type ReplayResponse, type ReplayWebhookDto } from './dto/replay-webhook.dto';
import type { WebhookTestResponse } from './dto/webhook.response';
import { testBody } from './engine/delivery-body';
import { ATTEMPT_LEASE_MS, WebhookSender } from './engine/webhook-sender';
import { WebhookQueue } from './engine/webhook-queue';
import { deliveryNotFound, endpointDisabled, replayPending, replayTooLarge, replayWindowInvalid, webhookNotFound } from './webhooks.errors';
import { WebhooksService } from './webhooks.service';

/** An endpoint's deliveries: the log, a retry by hand, a replay of a time window, a test. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly endpoints: WebhooksService,
    private readonly store: DeliveriesStore,
    private readonly queue: WebhookQueue,
    private readonly sender: WebhookSender,
  ) {}

  /** The log, newest first: a cursor list, `total` on the first page. */
  async list(projectId: string, endpointId: string, query: ListDeliveriesQuery): Promise<CursorPage<DeliveryResponse>> {
    await this.endpoints.find(projectId, endpointId);
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const { rows, total } = await this.store.page(projectId, endpointId, query.status, cursor, limit, !cursor);
    return cursorPage(rows, limit, toDeliveryResponse, (last) => ({ v: last.createdKey, id: last.id }), total);
  }

  async get(projectId: string, endpointId: string, deliveryId: string): Promise<DeliveryDetailResponse> {
    await this.endpoints.find(projectId, endpointId);
    const delivery = await this.store.findOne(projectId, endpointId, deliveryId);
    if (!delivery) throw deliveryNotFound();
    return toDeliveryDetailResponse(delivery, await this.store.attemptsOf(delivery.id));
  }

  /** An attempt now, from a worker process, whatever the delivery's status (a failed one becomes pending again). 409 while the endpoint is disabled. */
  async retry(principal: Principal, projectId: string, endpointId: string, deliveryId: string): Promise<DeliveryResponse> {
    requireManager(principal);
    const endpoint = await this.endpoints.find(projectId, endpointId);
    if (!endpoint.enabled) throw endpointDisabled();
    const delivery = await this.store.makeDueNow(projectId, endpointId, deliveryId, new Date());
    if (!delivery) throw deliveryNotFound();
    await this.queue.enqueueNow(deliveryId, delivery.attempts);
    // The delivery as the retry left it (pending), not as a fast worker may already have moved it.
    return toDeliveryResponse(delivery);
  }

  /**
   * Every event of the project recorded in [since, until) that the endpoint's patterns match is
   * delivered again (new deliveries, whatever became of the earlier ones): one `INSERT … SELECT`.
   * `since` at most 7 days ago, before `until` (default now); 422 naming the field otherwise. At
   * most `REPLAY_MAX_DELIVERIES` (more: 422 on `since` with the count), and one replay of an
   * endpoint at a time (409 while one is pending); replayed deliveries go behind new events.
   */
  async replay(principal: Principal, projectId: string, endpointId: string, dto: ReplayWebhookDto): Promise<ReplayResponse> {
    requireManager(principal);
    const endpoint = await this.endpoints.find(projectId, endpointId);
    const now = new Date();
    const since = new Date(dto.since);
    const until = dto.until !== undefined ? new Date(dto.until) : now;
    const errors: Array<{ field: 'since' | 'until'; message: string; received?: unknown }> = [];
    if (since.getTime() < now.getTime() - REPLAY_MAX_AGE_MS) errors.push({ field: 'since', message: 'since must be at most 7 days ago', received: dto.since });
    if (dto.until !== undefined && until.getTime() <= since.getTime()) errors.push({ field: 'until', message: 'until must be after since', received: dto.until });
    else if (dto.until === undefined && since.getTime() >= now.getTime()) errors.push({ field: 'since', message: 'since must be in the past', received: dto.since });
    if (errors.length) throw replayWindowInvalid(errors);
    if (!endpoint.enabled) throw endpointDisabled();
    const replayed = await this.store.insertReplay(projectId, endpointId, endpoint.events, { since, until }, REPLAY_MAX_DELIVERIES, now);
    if ('pending' in replayed) throw replayPending();
    if ('tooMany' in replayed) throw replayTooLarge(replayed.tooMany, REPLAY_MAX_DELIVERIES, dto.since);
    await this.queue.enqueueReplay(replayed.ids);
    return { queued: replayed.ids.length };
  }

  /** A `webhook.test` event delivered now from this process (one attempt, recorded in the log like any delivery, never retried). */
  async test(principal: Principal, projectId: string, endpointId: string): Promise<WebhookTestResponse> {
    requireManager(principal);
    await this.endpoints.find(projectId, endpointId);
    const now = new Date();
    const id = randomUUID();
    const claimed = await this.store.insertClaimedTest(projectId, endpointId, id, testBody(id, now), now, new Date(now.getTime() + ATTEMPT_LEASE_MS));
    if (!claimed) throw webhookNotFound();
    const outcome = await this.sender.attemptOnce(claimed);
    return { status: outcome.ok ? 'succeeded' : 'failed', responseStatus: outcome.responseStatus, durationMs: outcome.durationMs, error: outcome.error, deliveryId: claimed.id };
  }
}
