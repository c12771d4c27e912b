import { Injectable } from '@nestjs/common';
import type { StoredEvent } from '../../events';
import { ExecutionsStore } from './executions.store';
import { WorkflowEngine } from './workflow-engine';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer. Per batch of stored events, one small statement asks, of the
 * batch's distinct (project, name) pairs only, which enabled EVENT workflows they start and which
 * have executions waiting for them; a batch that concerns no workflow ends there (the common case
 * under tracking load, which so sends PostgreSQL a few pairs instead of every event). Then one
 * statement starts the listening workflows for the events of their pairs (as the engine planned
 * each version's start) and one resumes executions waiting for the events of awaited pairs.
 * Delivery is at least once, so all are idempotent: an event starts a workflow at most once
 * (unique (workflow_id, contact_id, trigger_event_id)), a contact never has two active executions
 * of one workflow (unique partial index), and a resumed wait no longer matches.
 */
@Injectable()
export class WorkflowTriggers {
  readonly name = 'workflows';

  constructor(
    private readonly store: ExecutionsStore,
    private readonly queue: WorkflowQueue,
    private readonly engine: WorkflowEngine,
  ) {}

  async handle(events: StoredEvent[]): Promise<void> {
    const withContact = events.filter((e) => e.contactId !== null);
    if (withContact.length === 0) return;
    const pairs = new Map<string, { projectId: string; name: string }>();
    for (const e of withContact) pairs.set(pairKey(e.projectId, e.name), { projectId: e.projectId, name: e.name });
    const found = await this.store.probeTriggers([...pairs.values()]);
    if (found.length === 0) return;
    const started = new Set<string>();
    const awaited = new Set<string>();
    const listening: Array<{ id: string; version: number }> = [];
    for (const f of found) {
      if (f.kind === 'start') {
        started.add(pairKey(f.project_id, f.name));
        listening.push({ id: f.id!, version: f.version! });
      } else awaited.add(pairKey(f.project_id, f.name));
    }
    const keys = (e: StoredEvent, i: number) => ({ i, project_id: e.projectId, contact_id: e.contactId, name: e.name, created_at: e.createdAt });
    // Ids and data (which can be large) travel only for the events that start a workflow.
    const starting = withContact.filter((e) => started.has(pairKey(e.projectId, e.name)));
    await this.engine.start(listening, (plans) => this.store.insertStarts(starting.map((e, i) => ({ ...keys(e, i), id: e.id, data: e.data })), plans));
    const resuming = withContact.filter((e) => awaited.has(pairKey(e.projectId, e.name)));
    if (resuming.length === 0) return;
    await this.queue.wakes(await this.store.resumeWaits(resuming.map(keys)), 'e');
  }
}

const pairKey = (projectId: string, name: string): string => `${projectId}\u0000${name}`;
