import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredEvent } from '../../events/events.types';
import { WorkflowEngine } from './workflow-engine';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer: per batch of stored events, one statement finds every
 * matching enabled EVENT workflow to start for the event's contact (the engine starts them, one
 * more statement), and one resumes executions waiting for such an event. Delivery is at least once, so both are idempotent: an event starts a
 * workflow at most once (unique (workflow_id, trigger_event_id)), a contact never has two active
 * executions of one workflow (unique partial index), and a resumed wait no longer matches.
 */
@Injectable()
export class WorkflowTriggers {
  readonly name = 'workflows';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WorkflowQueue,
    private readonly engine: WorkflowEngine,
  ) {}

  async handle(events: StoredEvent[]): Promise<void> {
    const withContact = events.filter((e) => e.contactId !== null);
    if (withContact.length === 0) return;
    const rows = JSON.stringify(
      withContact.map((e, i) => ({ i, id: e.id, project_id: e.projectId, contact_id: e.contactId, name: e.name, data: e.data, created_at: e.createdAt })),
    );
    await this.engine.start(await this.dataSource.query(CANDIDATES_SQL, [rows]));
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [rows]);
    await this.queue.wakes(
      resumed.map((r) => ({ executionId: r.id, seq: r.steps_run })),
      'e',
    );
  }
}

/**
 * Without `allowReentry` a contact enters a workflow at most once ever; with it, again once no
 * execution of it is active. Of the batch's events for one contact and workflow only the first
 * can start it (a second would find the first active). Only reads: the engine plans and inserts
 * the executions (`WorkflowEngine.start`), where the unique rules hold whatever this read saw.
 */
const CANDIDATES_SQL = `
  SELECT project_id, workflow_id, version, contact_id, data, event_id FROM (
    SELECT DISTINCT ON (w.id, e.contact_id) w.project_id, w.id AS workflow_id, w.version, e.contact_id, e.data, e.id AS event_id, e.i
      FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
      JOIN workflows w ON w.project_id = e.project_id AND w.event_name = e.name AND w.enabled AND w.trigger_type = 'EVENT'
     WHERE NOT EXISTS (SELECT 1 FROM workflow_executions p
                        WHERE p.workflow_id = w.id AND p.contact_id = e.contact_id AND (NOT w.allow_reentry OR p.status IN ('RUNNING', 'WAITING')))
     ORDER BY w.id, e.contact_id, e.i
  ) c ORDER BY i`;

/** The first matching event after the wait began resumes it (wait_event cleared, so only once). */
const RESUME_SQL = `
  UPDATE workflow_executions x
     SET wait_outcome = 'EVENT', wake_at = now(), wait_event = NULL, updated_at = now()
    FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
   WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL AND x.contact_id = e.contact_id AND x.wait_event = e.name
     AND x.project_id = e.project_id AND x.wait_since <= e.created_at
  RETURNING x.id, x.steps_run`;
