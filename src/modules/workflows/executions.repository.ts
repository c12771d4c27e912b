// The reads of workflow executions for the API, the activity feed and the fields list (the engine's writes are in `engine/executions.store.ts`).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ContactExecution, UpcomingExecution } from '../activity';
import { Contact } from '../contacts';
import { WorkflowExecutionStep } from './entities/workflow-execution-step.entity';
import { ExecutionStatus, WorkflowExecution } from './entities/workflow-execution.entity';

/** An execution as the API lists it: with its contact's email, read in the same statement. */
export type ExecutionWithContact = WorkflowExecution & { contactEmail: string | null };

function withEmails({ entities, raw }: { entities: WorkflowExecution[]; raw: Array<{ x_id: string; contact_email: string | null }> }): ExecutionWithContact[] {
  const emails = new Map(raw.map((r) => [r.x_id, r.contact_email]));
  return entities.map((e) => Object.assign(e, { contactEmail: emails.get(e.id) ?? null }));
}

@Injectable()
export class ExecutionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** How many executions of the workflow are RUNNING or WAITING. */
  async countActive(projectId: string, workflowId: string, manager?: EntityManager): Promise<number> {
    const [{ count }] = await (manager ?? this.dataSource.manager).query(
      `SELECT count(*)::int AS count FROM workflow_executions WHERE workflow_id = $1 AND project_id = $2 AND status IN ('RUNNING', 'WAITING')`,
      [workflowId, projectId],
    );
    return count;
  }

  /** One page of the workflow's executions (newest first), optionally of one status, each with its contact's email (joined), and the total. */
  async listPage(projectId: string, workflowId: string, status: ExecutionStatus | undefined, offset: number, take: number): Promise<[ExecutionWithContact[], number]> {
    const where = { projectId, workflowId, ...(status ? { status } : {}) };
    // The total counts executions alone; the page joins each to its contact.
    const total = await this.dataSource.getRepository(WorkflowExecution).count({ where });
    const qb = this.withContact().where('x.projectId = :projectId AND x.workflowId = :workflowId', where);
    if (status) qb.andWhere('x.status = :status', where);
    const page = await qb.orderBy('x.startedAt', 'DESC').addOrderBy('x.id', 'ASC').offset(offset).limit(take).getRawAndEntities();
    return [withEmails(page), total];
  }

  async findOne(projectId: string, workflowId: string, id: string): Promise<ExecutionWithContact | null> {
    const one = await this.withContact().where('x.id = :id AND x.workflowId = :workflowId AND x.projectId = :projectId', { id, workflowId, projectId }).getRawAndEntities();
    return withEmails(one)[0] ?? null;
  }

  /**
   * One keyset batch of the contact's executions, newest first (`started_at`, `id`), each with its
   * contact's email, and the cursor after it (null on the last batch).
   */
  async contactPage(projectId: string, contactId: string, after: { at: string; id: string } | null, limit: number): Promise<{ rows: ExecutionWithContact[]; next: { at: string; id: string } | null }> {
    const qb = this.withContact().addSelect('CAST(x.started_at AS text)', 'started_key').where('x.projectId = :projectId AND x.contactId = :contactId', { projectId, contactId });
    if (after) qb.andWhere('(x.started_at, x.id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))', after);
    const page = await qb.orderBy('x.startedAt', 'DESC').addOrderBy('x.id', 'DESC').limit(limit + 1).getRawAndEntities();
    const rows = withEmails(page);
    const last = rows.length > limit ? page.raw[limit - 1] as { x_id: string; started_key: string } : null;
    return { rows: rows.slice(0, limit), next: last ? { at: last.started_key, id: last.x_id } : null };
  }

  /** Deletes the contact's executions (its erasure) and, by cascade, their steps; a queued step of one finds nothing to run. */
  async removeOfContact(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(`DELETE FROM workflow_executions WHERE project_id = $1 AND contact_id = $2`, [projectId, contactId]);
  }

  private withContact() {
    return this.dataSource.getRepository(WorkflowExecution).createQueryBuilder('x').leftJoin(Contact, 'c', 'c.id = x.contactId AND c.projectId = x.projectId').addSelect('c.email', 'contact_email');
  }

  /**
   * How many of the workflow's active executions are at each step, in one grouped statement over
   * its active executions (`workflow_executions_active_key` holds exactly those rows).
   */
  countsByStep(projectId: string, workflowId: string): Promise<Array<{ stepId: string; running: number; waiting: number }>> {
    return this.dataSource.query(
      `SELECT current_step_id::text AS "stepId", count(*) FILTER (WHERE status = 'RUNNING')::int AS running, count(*) FILTER (WHERE status = 'WAITING')::int AS waiting
         FROM workflow_executions
        WHERE workflow_id = $1 AND project_id = $2 AND status IN ('RUNNING', 'WAITING') AND current_step_id IS NOT NULL
        GROUP BY current_step_id ORDER BY current_step_id`,
      [workflowId, projectId],
    );
  }

  /** The project's emails among `ids` (those an execution's SEND_EMAIL steps queued): subject and status. */
  async emailsOf(projectId: string, ids: string[]): Promise<Map<string, { id: string; subject: string | null; status: string }>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; subject: string | null; status: string }> = await this.dataSource.query(
      `SELECT id::text AS id, subject, status FROM emails WHERE id = ANY($1::uuid[]) AND project_id = $2`,
      [ids, projectId],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The step records of an execution found in its project (`findOne`), in order. */
  stepRecordsOf(execution: Pick<WorkflowExecution, 'id'>): Promise<WorkflowExecutionStep[]> {
    return this.dataSource.getRepository(WorkflowExecutionStep).find({ where: { executionId: execution.id }, order: { seq: 'ASC' } });
  }

  /** The contexts of the project's most recent executions that have one. */
  async recentContexts(projectId: string, limit: number): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ context: Record<string, unknown> }> = await this.dataSource.query(
      `SELECT context FROM workflow_executions WHERE project_id = $1 AND context <> '{}'::jsonb ORDER BY started_at DESC LIMIT ${Number(limit)}`,
      [projectId],
    );
    return rows.map((r) => r.context);
  }

  /** WAITING executions with their due time (null for a wait without timeout, listed last), soonest first. */
  waiting(projectId: string, limit: number): Promise<UpcomingExecution[]> {
    return this.dataSource.query(
      `SELECT x.id::text AS id, x.workflow_id::text AS "workflowId", w.name AS "workflowName", x.contact_id AS "contactId",
              to_char(x.wake_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "dueAt"
         FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id
        WHERE x.project_id = $1 AND x.status = 'WAITING'
        ORDER BY x.wake_at NULLS LAST, x.id LIMIT $2`,
      [projectId, limit],
    );
  }

  /** The contact's executions, newest first (`workflow_executions_contact_idx`). */
  ofContact(projectId: string, contactId: string, limit: number): Promise<ContactExecution[]> {
    return this.dataSource.query(
      `SELECT x.id::text AS id, x.workflow_id::text AS "workflowId", w.name AS "workflowName", x.status, x.exit_reason AS "exitReason",
              to_char(x.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
              to_char(x.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "completedAt"
         FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id
        WHERE x.project_id = $1 AND x.contact_id = $2
        ORDER BY x.started_at DESC, x.id DESC LIMIT $3`,
      [projectId, contactId, limit],
    );
  }
}
