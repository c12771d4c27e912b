import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { validationError } from '../../platform/http/app-error';
import { offsetPage, parseOffsetQuery } from '../../platform/http/pagination';
import { TemplatesService } from '../templates/templates.service';
import type { CreateStepDto, CreateTransitionDto, CreateWorkflowDto, UpdateStepDto, UpdateWorkflowDto } from './dto/workflow.dto';
import { toStepResponse, toTransitionResponse, toWorkflowResponse, StepResponse, TransitionResponse, WorkflowPage, WorkflowResponse } from './dto/workflow.response';
import { WorkflowExecution } from './entities/workflow-execution.entity';
import { StepType, WorkflowStep } from './entities/workflow-step.entity';
import { WorkflowTransition } from './entities/workflow-transition.entity';
import { WorkflowVersion } from './entities/workflow-version.entity';
import { Workflow } from './entities/workflow.entity';
import { slotTaken, spliceTransitions, transitionProblems, WorkflowGraph } from './graph/workflow-graph';
import { checkStepConfig } from './graph/step-config';
import {
  cannotSplice,
  stepNotFound,
  transitionNotFound,
  transitionSlotTaken,
  triggerStepUndeletable,
  workflowHasActiveExecutions,
  workflowNotFound,
} from './workflows.errors';
import { isUuid } from '../../platform/http/parse-uuid.pipe';


/** Workflows, their steps and transitions. Every graph change writes the next immutable version. */
@Injectable()
export class WorkflowsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly templates: TemplatesService,
  ) {}

  async create(projectId: string, dto: CreateWorkflowDto): Promise<WorkflowResponse> {
    return this.dataSource.transaction(async (em) => {
      const workflow = await em.save(
        em.create(Workflow, {
          projectId,
          name: dto.name.trim(),
          description: dto.description?.trim() || null,
          triggerType: 'EVENT',
          eventName: dto.eventName.trim(),
          enabled: false,
          allowReentry: dto.allowReentry ?? false,
          version: 1,
        }),
      );
      await em.save(em.create(WorkflowStep, { workflowId: workflow.id, type: 'TRIGGER', name: 'Trigger', config: { eventName: workflow.eventName } }));
      await this.writeVersion(em, workflow.id, 1);
      return this.load(em, projectId, workflow.id);
    });
  }

  async list(projectId: string, query: { page?: unknown; pageSize?: unknown }): Promise<WorkflowPage> {
    const { page, pageSize, offset } = parseOffsetQuery(query);
    const [rows, total] = await this.dataSource.getRepository(Workflow).findAndCount({
      where: { projectId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: pageSize,
    });
    const ids = rows.map((w) => w.id);
    const steps = ids.length ? await this.dataSource.getRepository(WorkflowStep).createQueryBuilder('s').where('s.workflow_id = ANY(:ids)', { ids }).orderBy('s.created_at').getMany() : [];
    const transitions = ids.length
      ? await this.dataSource.getRepository(WorkflowTransition).createQueryBuilder('t').where('t.workflow_id = ANY(:ids)', { ids }).orderBy('t.created_at').getMany()
      : [];
    return offsetPage(
      rows.map((w) => toWorkflowResponse(w, steps.filter((s) => s.workflowId === w.id), transitions.filter((t) => t.workflowId === w.id))),
      page,
      pageSize,
      total,
    );
  }

  get(projectId: string, id: string): Promise<WorkflowResponse> {
    return this.load(this.dataSource.manager, projectId, id);
  }

  async update(projectId: string, id: string, dto: UpdateWorkflowDto): Promise<WorkflowResponse> {
    return this.mutate(projectId, id, async (em, workflow) => {
      const eventName = dto.triggerConfig?.eventName ?? dto.eventName;
      const patch: Partial<Workflow> = { updatedAt: new Date() };
      if (dto.name !== undefined) patch.name = dto.name.trim();
      if (dto.description !== undefined) patch.description = dto.description?.trim() || null;
      if (dto.triggerType !== undefined) patch.triggerType = dto.triggerType;
      if (dto.enabled !== undefined) patch.enabled = dto.enabled;
      if (dto.allowReentry !== undefined) patch.allowReentry = dto.allowReentry;
      await em.update(Workflow, { id: workflow.id }, patch);
      if (eventName !== undefined && eventName.trim() !== workflow.eventName) {
        await em.update(Workflow, { id: workflow.id }, { eventName: eventName.trim() });
        await em.query(`UPDATE workflow_steps SET config = jsonb_build_object('eventName', $2::text) WHERE workflow_id = $1 AND type = 'TRIGGER'`, [
          workflow.id,
          eventName.trim(),
        ]);
        return true;
      }
      return false;
    }).then(() => this.get(projectId, id));
  }

  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.lock(em, projectId, id);
      const [{ count }] = await em.query(`SELECT count(*)::int AS count FROM workflow_executions WHERE workflow_id = $1 AND status IN ('RUNNING', 'WAITING')`, [id]);
      if (count > 0) throw workflowHasActiveExecutions(count);
      await em.delete(Workflow, { id, projectId });
    });
  }

  async addStep(projectId: string, workflowId: string, dto: CreateStepDto): Promise<StepResponse> {
    const type = dto.type as StepType;
    const config = await this.checkConfig(projectId, type, dto.config);
    let step!: WorkflowStep;
    await this.mutate(projectId, workflowId, async (em) => {
      step = await em.save(em.create(WorkflowStep, { workflowId, type, name: dto.name?.trim() || null, config, position: dto.position ?? null }));
      return true;
    });
    return toStepResponse(step);
  }

  async updateStep(projectId: string, workflowId: string, stepId: string, dto: UpdateStepDto): Promise<StepResponse> {
    let step!: WorkflowStep;
    await this.mutate(projectId, workflowId, async (em) => {
      step = await this.findStep(em, workflowId, stepId);
      if (dto.config !== undefined) {
        if (step.type === 'TRIGGER') throw validationError([{ field: 'config', code: 'invalid', message: "the TRIGGER step's config follows the workflow's triggerConfig (PATCH /workflows/:id)" }]);
        step.config = await this.checkConfig(projectId, step.type, dto.config, em);
      }
      if (dto.name !== undefined) step.name = dto.name?.trim() || null;
      if (dto.position !== undefined) step.position = dto.position;
      await em.save(step);
      return dto.config !== undefined;
    });
    return toStepResponse(step);
  }

  async removeStep(projectId: string, workflowId: string, stepId: string, splice: boolean): Promise<void> {
    await this.mutate(projectId, workflowId, async (em) => {
      const step = await this.findStep(em, workflowId, stepId);
      if (step.type === 'TRIGGER') throw triggerStepUndeletable();
      if (splice) {
        const transitions = await em.find(WorkflowTransition, { where: { workflowId } });
        const relinked = spliceTransitions(
          transitions.map((t) => ({ from: t.fromStepId, to: t.toStepId, branch: t.branch, waitOutcome: t.waitOutcome })),
          stepId,
        );
        if (relinked === null) throw cannotSplice();
        await em.delete(WorkflowStep, { id: stepId, workflowId });
        for (const t of relinked) {
          await em.save(em.create(WorkflowTransition, { workflowId, fromStepId: t.from, toStepId: t.to, branch: t.branch, waitOutcome: t.waitOutcome }));
        }
      } else {
        await em.delete(WorkflowStep, { id: stepId, workflowId });
      }
      return true;
    });
  }

  async addTransition(projectId: string, workflowId: string, dto: CreateTransitionDto): Promise<TransitionResponse> {
    let transition!: WorkflowTransition;
    await this.mutate(projectId, workflowId, async (em) => {
      const steps = await em.query(`SELECT id, type FROM workflow_steps WHERE workflow_id = $1 AND id = ANY($2::uuid[])`, [
        workflowId,
        [dto.fromStepId, dto.toStepId].filter((s) => isUuid(s)),
      ]);
      const from = steps.find((s: { id: string }) => s.id === dto.fromStepId);
      const to = steps.find((s: { id: string }) => s.id === dto.toStepId);
      const missing = [
        ...(from ? [] : [{ field: 'fromStepId', code: 'not_found', message: 'fromStepId is not a step of this workflow' }]),
        ...(to ? [] : [{ field: 'toStepId', code: 'not_found', message: 'toStepId is not a step of this workflow' }]),
      ];
      if (missing.length) throw validationError(missing);
      const problems = transitionProblems({ fromType: from.type, toType: to.type, branch: dto.branch, waitOutcome: dto.waitOutcome });
      if (dto.fromStepId === dto.toStepId) problems.push({ field: 'toStepId', code: 'invalid_transition', message: 'a step cannot lead to itself' });
      if (problems.length) throw validationError(problems);
      const existing = await em.find(WorkflowTransition, { where: { workflowId, fromStepId: from.id } });
      if (slotTaken(existing, from.type, dto.branch, dto.waitOutcome)) {
        throw transitionSlotTaken(from.type === 'CONDITION' ? `a "${dto.branch}" branch` : from.type === 'WAIT_FOR_EVENT' ? `a ${dto.waitOutcome} outcome` : 'an outgoing transition');
      }
      transition = await em.save(
        em.create(WorkflowTransition, {
          workflowId,
          fromStepId: from.id,
          toStepId: to.id,
          branch: (dto.branch as WorkflowTransition['branch']) ?? null,
          waitOutcome: (dto.waitOutcome as WorkflowTransition['waitOutcome']) ?? null,
        }),
      );
      return true;
    });
    return toTransitionResponse(transition);
  }

  async removeTransition(projectId: string, workflowId: string, transitionId: string): Promise<void> {
    await this.mutate(projectId, workflowId, async (em) => {
      if (!isUuid(transitionId)) throw transitionNotFound();
      const result = await em.delete(WorkflowTransition, { id: transitionId, workflowId });
      if (!result.affected) throw transitionNotFound();
      return true;
    });
  }

  /** The workflow of this project, or 404 (also for a malformed id). */
  async findOne(projectId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<Workflow> {
    if (!isUuid(id)) throw workflowNotFound();
    const workflow = await manager.findOne(Workflow, { where: { id, projectId } });
    if (!workflow) throw workflowNotFound();
    return workflow;
  }

  /** The graph of a version; written with every change, so it exists for every version executions name. */
  async graph(workflowId: string, version: number): Promise<WorkflowGraph> {
    const row = await this.dataSource.getRepository(WorkflowVersion).findOne({ where: { workflowId, version } });
    if (!row) throw new Error(`workflow ${workflowId} has no version ${version}`);
    return row.graph;
  }

  async activeCount(workflowId: string): Promise<number> {
    return this.dataSource.getRepository(WorkflowExecution).count({ where: [{ workflowId, status: 'RUNNING' }, { workflowId, status: 'WAITING' }] });
  }

  /** With `em`, the template is read inside the caller's transaction (see TemplatesService.findOne). */
  private async checkConfig(projectId: string, type: StepType, raw: unknown, em?: EntityManager): Promise<Record<string, unknown>> {
    const { config, problems } = checkStepConfig(type, raw);
    if (problems.length) throw validationError(problems);
    if (type === 'SEND_EMAIL') {
      const found = await this.templates.findOne(projectId, config.templateId as string, em).catch(() => null);
      if (!found) throw validationError([{ field: 'config.templateId', code: 'not_found', message: 'templateId is not a template of this project', received: config.templateId }]);
    }
    return config;
  }

  /** Runs a change under the workflow's row lock; `true` from `change` means the graph changed (next version). */
  private async mutate(projectId: string, id: string, change: (em: EntityManager, workflow: Workflow) => Promise<boolean>): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const workflow = await this.lock(em, projectId, id);
      if (await change(em, workflow)) {
        const [rows] = await em.query(`UPDATE workflows SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version`, [id]);
        await this.writeVersion(em, id, rows[0].version);
      }
    });
  }

  private async lock(em: EntityManager, projectId: string, id: string): Promise<Workflow> {
    if (!isUuid(id)) throw workflowNotFound();
    const workflow = await em.findOne(Workflow, { where: { id, projectId }, lock: { mode: 'pessimistic_write' } });
    if (!workflow) throw workflowNotFound();
    return workflow;
  }

  private async findStep(em: EntityManager, workflowId: string, stepId: string): Promise<WorkflowStep> {
    if (!isUuid(stepId)) throw stepNotFound();
    const step = await em.findOne(WorkflowStep, { where: { id: stepId, workflowId } });
    if (!step) throw stepNotFound();
    return step;
  }

  private async writeVersion(em: EntityManager, workflowId: string, version: number): Promise<void> {
    await em.query(
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

  private async load(em: EntityManager, projectId: string, id: string): Promise<WorkflowResponse> {
    const workflow = await this.findOne(projectId, id, em);
    const steps = await em.find(WorkflowStep, { where: { workflowId: id }, order: { createdAt: 'ASC', id: 'ASC' } });
    const transitions = await em.find(WorkflowTransition, { where: { workflowId: id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return toWorkflowResponse(workflow, steps, transitions);
  }
}
