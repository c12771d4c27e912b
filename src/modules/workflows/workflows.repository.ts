import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Fragment, sql } from '../../platform/database/sql-fragment';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import type { UsageRef, UsageSubject } from '../../platform/usage/usage.registry';
import { WorkflowStep } from './entities/workflow-step.entity';
import { WorkflowTransition } from './entities/workflow-transition.entity';
import { WorkflowVersion } from './entities/workflow-version.entity';
import { Workflow } from './entities/workflow.entity';
import type { WorkflowGraph } from './graph/workflow-graph';

/**
 * The workflows module's SQL for workflows, their steps, transitions and versions. Workflow
 * methods take the project id first. Steps, transitions and versions have no project column:
 * their methods (`…OfWorkflow`) take the id of a workflow the caller found in its project (under
 * its lock when it changes it). `manager` runs a method in the caller's transaction.
 */
@Injectable()
export class WorkflowsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private em(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  // --- workflows -------------------------------------------------------------------------------

  insert(projectId: string, fields: Partial<Workflow>, manager?: EntityManager): Promise<Workflow> {
    const em = this.em(manager);
    return em.save(em.create(Workflow, { ...fields, projectId }));
  }

  findOne(projectId: string, id: string, manager?: EntityManager): Promise<Workflow | null> {
    return this.em(manager).findOne(Workflow, { where: { id, projectId } });
  }

  /** The workflow under its row lock (in the caller's transaction). */
  findOneForUpdate(projectId: string, id: string, manager: EntityManager): Promise<Workflow | null> {
    return manager.findOne(Workflow, { where: { id, projectId }, lock: { mode: 'pessimistic_write' } });
  }

  /** One page of the project's workflows (newest first), the total, and the steps and transitions of the page's workflows. */
  async listPage(projectId: string, offset: number, take: number): Promise<{ rows: Workflow[]; total: number; steps: WorkflowStep[]; transitions: WorkflowTransition[] }> {
    const [rows, total] = await this.dataSource.getRepository(Workflow).findAndCount({
      where: { projectId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take,
    });
    const ids = rows.map((w) => w.id);
    const steps = ids.length ? await this.dataSource.getRepository(WorkflowStep).createQueryBuilder('s').where('s.workflow_id = ANY(:ids)', { ids }).orderBy('s.created_at').getMany() : [];
    const transitions = ids.length
      ? await this.dataSource.getRepository(WorkflowTransition).createQueryBuilder('t').where('t.workflow_id = ANY(:ids)', { ids }).orderBy('t.created_at').getMany()
      : [];
    return { rows, total, steps, transitions };
  }

  async update(projectId: string, id: string, patch: Partial<Workflow>, manager?: EntityManager): Promise<void> {
    await this.em(manager).update(Workflow, { id, projectId }, patch);
  }

  async delete(projectId: string, id: string, manager?: EntityManager): Promise<void> {
    await this.em(manager).delete(Workflow, { id, projectId });
  }

  /** The next version number, written on the workflow row (under the caller's lock). */
  async bumpVersion(projectId: string, id: string, manager: EntityManager): Promise<number> {
    const [rows] = await manager.query(`UPDATE workflows SET version = version + 1, updated_at = now() WHERE id = $1 AND project_id = $2 RETURNING version`, [id, projectId]);
    return rows[0].version;
  }

  /** The event names that trigger the project's workflows. */
  async triggerEventNames(projectId: string): Promise<string[]> {
    const rows: Array<{ event_name: string }> = await this.dataSource.query(`SELECT DISTINCT event_name FROM workflows WHERE project_id = $1 AND event_name IS NOT NULL`, [projectId]);
    return rows.map((r) => r.event_name);
  }

  /** The steps (TRIGGER, WAIT_FOR_EVENT, CONDITION, UPDATE_CONTACT, SEND_EMAIL) of the project's workflows that reference `subject`. */
  referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    const select = `SELECT w.id::text AS id, w.name, s.id::text AS "stepId" FROM workflow_steps s JOIN workflows w ON w.id = s.workflow_id WHERE w.project_id = $1`;
    if (subject.kind === 'template') {
      return this.dataSource.query(`${select} AND s.type = 'SEND_EMAIL' AND s.config->>'templateId' = $2 LIMIT 1000`, [projectId, subject.id]);
    }
    const matcher = jsonReferenceMatcher(subject);
    if (!matcher) return Promise.resolve([]);
    const test = jsonReferenceCondition('s.config', matcher, 2);
    return this.dataSource.query(`${select} AND (${test.sql}) LIMIT 1000`, [projectId, ...test.params]);
  }

  // --- steps, transitions and versions of a workflow -------------------------------------------

  insertStepOfWorkflow(workflowId: string, fields: Partial<WorkflowStep>, manager?: EntityManager): Promise<WorkflowStep> {
    const em = this.em(manager);
    return em.save(em.create(WorkflowStep, { ...fields, workflowId }));
  }

  saveStep(step: WorkflowStep, manager?: EntityManager): Promise<WorkflowStep> {
    return this.em(manager).save(step);
  }

  findStepOfWorkflow(workflowId: string, stepId: string, manager?: EntityManager): Promise<WorkflowStep | null> {
    return this.em(manager).findOne(WorkflowStep, { where: { id: stepId, workflowId } });
  }

  /** The steps among `ids` (well-formed uuids), with their types. */
  stepTypesOfWorkflow(workflowId: string, ids: string[], manager?: EntityManager): Promise<Array<{ id: string; type: WorkflowStep['type'] }>> {
    return this.em(manager).query(`SELECT id, type FROM workflow_steps WHERE workflow_id = $1 AND id = ANY($2::uuid[])`, [workflowId, ids]);
  }

  async deleteStepOfWorkflow(workflowId: string, stepId: string, manager?: EntityManager): Promise<void> {
    await this.em(manager).delete(WorkflowStep, { id: stepId, workflowId });
  }

  /** The TRIGGER step's config follows the workflow's event name. */
  async setTriggerEventOfWorkflow(workflowId: string, eventName: string, manager?: EntityManager): Promise<void> {
    await this.em(manager).query(`UPDATE workflow_steps SET config = jsonb_build_object('eventName', $2::text) WHERE workflow_id = $1 AND type = 'TRIGGER'`, [workflowId, eventName]);
  }

  stepsOfWorkflow(workflowId: string, manager?: EntityManager): Promise<WorkflowStep[]> {
    return this.em(manager).find(WorkflowStep, { where: { workflowId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The workflow's transitions, in creation order. */
  transitionsOfWorkflow(workflowId: string, manager?: EntityManager): Promise<WorkflowTransition[]> {
    return this.em(manager).find(WorkflowTransition, { where: { workflowId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** All the workflow's transitions (or those leaving `fromStepId`), in no particular order. */
  unorderedTransitionsOfWorkflow(workflowId: string, manager?: EntityManager, fromStepId?: string): Promise<WorkflowTransition[]> {
    return this.em(manager).find(WorkflowTransition, { where: fromStepId === undefined ? { workflowId } : { workflowId, fromStepId } });
  }

  insertTransitionOfWorkflow(workflowId: string, fields: Partial<WorkflowTransition>, manager?: EntityManager): Promise<WorkflowTransition> {
    const em = this.em(manager);
    return em.save(em.create(WorkflowTransition, { ...fields, workflowId }));
  }

  /** Several transitions of the workflow in one INSERT (a spliced-out step's relinked edges). */
  async insertTransitionsOfWorkflow(workflowId: string, rows: Array<Partial<WorkflowTransition>>, manager: EntityManager): Promise<void> {
    if (rows.length > 0) await manager.insert(WorkflowTransition, rows.map((fields) => ({ ...fields, workflowId })));
  }

  /** False when there was no such transition. */
  async deleteTransitionOfWorkflow(workflowId: string, transitionId: string, manager?: EntityManager): Promise<boolean> {
    const result = await this.em(manager).delete(WorkflowTransition, { id: transitionId, workflowId });
    return !!result.affected;
  }

  /** The immutable graph of `version`, from the workflow's steps and transitions as they are now (a version written before is kept). */
  async writeVersionOfWorkflow(workflowId: string, version: number, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO workflow_versions (workflow_id, version, graph)
       SELECT $1, $2, jsonb_build_object(
         'steps', coalesce((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'type', s.type, 'name', s.name, 'config', s.config) ORDER BY s.created_at)
                              FROM workflow_steps s WHERE s.workflow_id = $1), '[]'::jsonb),
         'transitions', coalesce((SELECT jsonb_agg(jsonb_build_object('from', t.from_step_id, 'to', t.to_step_id, 'branch', t.branch, 'waitOutcome', t.wait_outcome) ORDER BY t.created_at)
                              FROM workflow_transitions t WHERE t.workflow_id = $1), '[]'::jsonb))
       ON CONFLICT DO NOTHING`,
      [workflowId, version],
    );
  }

  /** The graph of a version, for the engine (which reads executions across projects). */
  async graphAnyProject(workflowId: string, version: number): Promise<WorkflowGraph | null> {
    const row = await this.dataSource.getRepository(WorkflowVersion).findOne({ where: { workflowId, version } });
    return row?.graph ?? null;
  }

  // --- conditions ------------------------------------------------------------------------------

  /**
   * Whether a CONDITION's compiled predicate (alias `c`) holds, in one statement: on the project's
   * contact `contactId`, or on `data` (an event's or the execution's context) as `c.data`.
   */
  async conditionHolds(projectId: string, predicate: Fragment, on: { contactId: string } | { data: Record<string, unknown> }): Promise<boolean> {
    const query =
      'contactId' in on
        ? sql`SELECT (${predicate}) AS result FROM contacts c WHERE c.project_id = ${projectId}::uuid AND c.id = ${on.contactId}`
        : sql`SELECT (${predicate}) AS result FROM (SELECT ${JSON.stringify(on.data)}::jsonb AS data) c`;
    const rows: Array<{ result: boolean }> = await this.dataSource.query(query.text, query.values);
    return rows[0]?.result === true;
  }

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM workflows WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }
}
