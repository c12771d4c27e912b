import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredEvent } from '../../events/events.types';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer: per batch of stored events, one statement starts every
 * matching enabled EVENT workflow for the event's contact, and one resumes executions waiting
 * for such an event. Delivery is at least once, so both are idempotent: an event starts a
 * workflow at most once (unique (workflow_id, trigger_event_id)), a contact never has two active
 * executions of one workflow (unique partial index), and a resumed wait no longer matches.
 */
@Injectable()
export class WorkflowTriggers {
  readonly name = 'workflows';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WorkflowQueue,
  ) {}

  async handle(events: StoredEvent[]): Promise<void> {
    const withContact = events.filter((e) => e.contactId !== null);
    if (withContact.length === 0) return;
    const rows = JSON.stringify(
      withContact.map((e, i) => ({ i, id: e.id, project_id: e.projectId, contact_id: e.contactId, name: e.name, data: e.data, created_at: e.createdAt })),
    );
    const started: Array<{ id: string }> = await this.dataSource.query(START_SQL, [rows]);
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [rows]);
    await this.queue.groupedSteps(started.map((r) => ({ executionId: r.id, seq: 0 })));
    await this.queue.wakes(
      resumed.map((r) => ({ executionId: r.id, seq: r.steps_run })),
      'e',
    );
  }
}

/**
 * Without `allowReentry` a contact enters a workflow at most once ever; with it, again once no
 * execution of it is active. Events in batch order, so the first of two for one contact wins.
 */
const START_SQL = `
  INSERT INTO workflow_executions (project_id, workflow_id, version, contact_id, event, trigger_event_id, current_step_id)
  SELECT w.project_id, w.id, w.version, e.contact_id, e.data, e.id,
         (SELECT s.id FROM workflow_steps s WHERE s.workflow_id = w.id AND s.type = 'TRIGGER')
    FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
    JOIN workflows w ON w.project_id = e.project_id AND w.event_name = e.name AND w.enabled AND w.trigger_type = 'EVENT'
   WHERE w.allow_reentry OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.workflow_id = w.id AND p.contact_id = e.contact_id)
   ORDER BY e.i
  ON CONFLICT DO NOTHING
  RETURNING id`;

/** The first matching event after the wait began resumes it (wait_event cleared, so only once). */
const RESUME_SQL = `
  UPDATE workflow_executions x
     SET wait_outcome = 'EVENT', wake_at = now(), wait_event = NULL, updated_at = now()
    FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
   WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL AND x.contact_id = e.contact_id AND x.wait_event = e.name
     AND x.project_id = e.project_id AND x.wait_since <= e.created_at
  RETURNING x.id, x.steps_run`;
