import { Injectable } from '@nestjs/common';
import { ContactFieldsService, inferFieldType } from '../contacts';
import { EventsService } from '../events';
import { ExecutionsRepository } from './executions.repository';
import { WorkflowsRepository } from './workflows.repository';

export interface WorkflowField {
  field: string;
  type: string;
  source: 'contact' | 'event' | 'workflow';
}

/** Recent rows read for event and context keys (enough to list the keys in use, bounded cost). */
const SAMPLE = 1_000;

/**
 * `GET /workflows/fields`: what a CONDITION can read. Contact fields from the project's typed
 * keys; `event.<key>` from recent events whose names trigger the project's workflows;
 * `workflow.<key>` from the contexts of recent executions.
 */
@Injectable()
export class WorkflowFields {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly executions: ExecutionsRepository,
    private readonly contactFields: ContactFieldsService,
    private readonly events: EventsService,
  ) {}

  async list(projectId: string): Promise<{ fields: WorkflowField[] }> {
    const contactKeys = await this.contactFields.keyTypes(projectId);
    const triggers = await this.repository.triggerEventNames(projectId);
    const eventData = await this.events.recentData(projectId, triggers, SAMPLE);
    const contexts = await this.executions.recentContexts(projectId, SAMPLE);
    return {
      fields: [
        { field: 'contact.email', type: 'string', source: 'contact' },
        { field: 'contact.subscribed', type: 'boolean', source: 'contact' },
        ...contactKeys.map((k): WorkflowField => ({ field: `data.${k.key}`, type: k.type, source: 'contact' })),
        ...keysOf(eventData, 'event'),
        ...keysOf(contexts, 'workflow'),
      ],
    };
  }
}

/** Top-level keys in first-seen order, typed by their first non-null value. */
function keysOf(objects: Array<Record<string, unknown>>, source: 'event' | 'workflow'): WorkflowField[] {
  const types = new Map<string, string>();
  for (const o of objects) {
    for (const [key, value] of Object.entries(o ?? {})) {
      if (!types.has(key) && value !== null && value !== undefined) types.set(key, inferFieldType(value));
    }
  }
  return [...types].map(([key, type]) => ({ field: `${source}.${key}`, type, source }));
}
