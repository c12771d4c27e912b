import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { apiYieldGate } from '../../../platform/http/api-load';
import { ContactDirectory } from '../../events';
import type { StoredEvent } from '../../events';
import { DeliveriesStore, type FanOut } from '../deliveries.store';
import { matches } from '../event-patterns';
import { WebhooksRepository } from '../webhooks.repository';
import { deliveryBody } from './delivery-body';
import { BACKLOG_PRIORITY_MAX, DELIVERIES_PER_JOB, WebhookQueue } from './webhook-queue';

/**
 * The `webhooks` event consumer. Per batch of stored events, one indexed query asks for the
 * enabled endpoints of the batch's projects; a batch of projects without any ends there (the
 * common case). Otherwise each event is matched against its project's endpoints in TS, the
 * contacts' addresses come in one lookup per project, every (endpoint, event) delivery is
 * inserted in one statement (an event handed on again makes none), and the new deliveries are
 * queued in groups, each project's behind its own backlog of pending deliveries (`backlogPriority`). Events recorded before an endpoint existed, or while it was disabled, never
 * reach it, however late the fan-out runs (`enabled_since`; a replay sends them on purpose). While the process's API is busy the consumer holds
 * off (`mayRun`), so a track load does not pay for its fan-out as it runs.
 */
@Injectable()
export class WebhookFanOut {
  readonly name = 'webhooks';
  /** The fan-out yields to this process's API as the deliveries do: while it is busy, at most one round per `WEBHOOK_YIELD_MAX_MS`. */
  readonly mayRun: () => boolean;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly endpoints: WebhooksRepository,
    private readonly store: DeliveriesStore,
    private readonly queue: WebhookQueue,
    private readonly contacts: ContactDirectory,
  ) {
    this.mayRun = apiYieldGate(config.webhooks.yieldMaxMs);
  }

  async handle(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const subscribed = await this.endpoints.enabledOfProjects([...new Set(events.map((e) => e.projectId))]);
    if (subscribed.length === 0) return;
    const byProject = new Map<string, typeof subscribed>();
    for (const endpoint of subscribed) byProject.set(endpoint.project_id, [...(byProject.get(endpoint.project_id) ?? []), endpoint]);

    const matched: Array<{ event: StoredEvent; endpointIds: string[] }> = [];
    for (const event of events) {
      // Only endpoints enabled when the event was recorded: the fan-out may run late (it yields to a busy API).
      const endpointIds = (byProject.get(event.projectId) ?? [])
        .filter((e) => new Date(e.enabled_since).getTime() <= event.createdAt.getTime() && matches(e.events, event.name))
        .map((e) => e.id);
      if (endpointIds.length) matched.push({ event, endpointIds });
    }
    if (matched.length === 0) return;

    const emails = await this.addresses(matched.map((m) => m.event));
    const fanOut: FanOut = { events: [], pairs: [] };
    for (const { event, endpointIds } of matched) {
      const index = fanOut.events.push({ id: event.id, type: event.name, body: deliveryBody(event, event.contactId ? emails.get(`${event.projectId}/${event.contactId}`) : undefined) }) - 1;
      for (const endpointId of endpointIds) fanOut.pairs.push({ endpointId, event: index });
    }
    // Each project's new jobs are queued behind its own backlog (counted before the insert), not behind other projects'.
    const backlog = await this.store.backlogOfEndpoints([...new Set(fanOut.pairs.map((p) => p.endpointId))], BACKLOG_PRIORITY_MAX * DELIVERIES_PER_JOB);
    const inserted = new Map<string, string[]>();
    for (const d of await this.store.insertForEvents(fanOut, new Date())) inserted.set(d.project_id, [...(inserted.get(d.project_id) ?? []), d.id]);
    await this.queue.enqueueNew([...inserted].map(([projectId, ids]) => ({ ids, backlog: backlog.get(projectId) ?? 0 })));
  }

  /** The addresses of the events' contacts, keyed `<projectId>/<contactId>`: one lookup per project. */
  private async addresses(events: StoredEvent[]): Promise<Map<string, string>> {
    const ids = new Map<string, Set<string>>();
    for (const e of events) if (e.contactId) ids.set(e.projectId, (ids.get(e.projectId) ?? new Set()).add(e.contactId));
    const out = new Map<string, string>();
    await Promise.all(
      [...ids].map(async ([projectId, contactIds]) => {
        for (const [id, email] of await this.contacts.emailsOf(projectId, [...contactIds])) out.set(`${projectId}/${id}`, email);
      }),
    );
    return out;
  }
}
