import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { validationError } from '../../platform/http/app-error';
import { offsetPage, parseOffsetQuery } from '../../platform/http/pagination';
import { TemplatesService } from '../templates';
import type { CreateStepDto, CreateTransitionDto, CreateWorkflowDto, UpdateStepDto, UpdateWorkflowDto } from './dto/workflow.dto';
import { toStepResponse, toTransitionResponse, toWorkflowResponse, StepResponse, TransitionResponse, WorkflowPage, WorkflowResponse } from './dto/workflow.response';
import { ExecutionsRepository } from './executions.repository';
import { StepType, WorkflowStep } from './entities/workflow-step.entity';
import { WorkflowTransition } from './entities/workflow-transition.entity';
import { Workflow } from './entities/workflow.entity';
import { WorkflowsRepository } from './workflows.repository';
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
    private readonly repository: WorkflowsRepository,
    private readonly executions: ExecutionsRepository,
  ) {}

  async create(projectId: string, dto: CreateWorkflowDto): Promise<WorkflowResponse> {
    return this.dataSource.transaction(async (em) => {
      const workflow = await this.repository.insert(
        projectId,
        {
          name: dto.name.trim(),
          description: dto.description?.trim() || null,
          triggerType: 'EVENT',
          eventName: dto.eventName.trim(),
          enabled: false,
          allowReentry: dto.allowReentry ?? false,
          version: 1,
        },
        em,
      );
      await this.repository.insertStepOfWorkflow(workflow.id, { type: 'TRIGGER', name: 'Trigger', config: { eventName: workflow.eventName } }, em);
      await this.writeVersion(em, workflow.id, 1);
      return this.load(em, projectId, workflow.id);
    });
  }

  async list(projectId: string, query: { page?: unknown; pageSize?: unknown }): Promise<WorkflowPage> {
    const { page, pageSize, offset } = parseOffsetQuery(query);
    const { rows, total, steps, transitions } = await this.repository.listPage(projectId, offset, pageSize);
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
      await this.repository.update(projectId, workflow.id, patch, em);
      if (eventName !== undefined && eventName.trim() !== workflow.eventName) {
        await this.repository.update(projectId, workflow.id, { eventName: eventName.trim() }, em);
        await this.repository.setTriggerEventOfWorkflow(workflow.id, eventName.trim(), em);
        return true;
      }
      return false;
    }).then(() => this.get(projectId, id));
  }

  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.lock(em, projectId, id);
      const count = await this.executions.countActive(projectId, id, em);
      if (count > 0) throw workflowHasActiveExecutions(count);
      await this.repository.delete(projectId, id, em);
    });
  }

  async addStep(projectId: string, workflowId: string, dto: CreateStepDto): Promise<StepResponse> {
    const type = dto.type as StepType;
    const config = await this.checkConfig(projectId, type, dto.config);
    let step!: WorkflowStep;
    await this.mutate(projectId, workflowId, async (em) => {
      step = await this.repository.insertStepOfWorkflow(workflowId, { type, name: dto.name?.trim() || null, config, position: dto.position ?? null }, em);
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
      await this.repository.saveStep(step, em);
      return dto.config !== undefined;
    });
    return toStepResponse(step);
  }

  async removeStep(projectId: string, workflowId: string, stepId: string, splice: boolean): Promise<void> {
    await this.mutate(projectId, workflowId, async (em) => {
      const step = await this.findStep(em, workflowId, stepId);
      if (step.type === 'TRIGGER') throw triggerStepUndeletable();
      if (splice) {
        const transitions = await this.repository.unorderedTransitionsOfWorkflow(workflowId, em);
        const relinked = spliceTransitions(
          transitions.map((t) => ({ from: t.fromStepId, to: t.toStepId, branch: t.branch, waitOutcome: t.waitOutcome })),
          stepId,
        );
        if (relinked === null) throw cannotSplice();
        await this.repository.deleteStepOfWorkflow(workflowId, stepId, em);
        await this.repository.insertTransitionsOfWorkflow(
          workflowId,
          relinked.map((t) => ({ fromStepId: t.from, toStepId: t.to, branch: t.branch, waitOutcome: t.waitOutcome })),
          em,
        );
      } else {
        await this.repository.deleteStepOfWorkflow(workflowId, stepId, em);
      }
      return true;
    });
  }

  async addTransition(projectId: string, workflowId: string, dto: CreateTransitionDto): Promise<TransitionResponse> {
    let transition!: WorkflowTransition;
    await this.mutate(projectId, workflowId, async (em) => {
      const steps = await this.repository.stepTypesOfWorkflow(
        workflowId,
        [dto.fromStepId, dto.toStepId].filter((s) => isUuid(s)),
        em,
      );
      const from = steps.find((s) => s.id === dto.fromStepId);
      const to = steps.find((s) => s.id === dto.toStepId);
      const missing = [
        ...(from ? [] : [{ field: 'fromStepId', code: 'not_found', message: 'fromStepId is not a step of this workflow' }]),
        ...(to ? [] : [{ field: 'toStepId', code: 'not_found', message: 'toStepId is not a step of this workflow' }]),
      ];
      if (!from || !to) throw validationError(missing);
      const problems = transitionProblems({ fromType: from.type, toType: to.type, branch: dto.branch, waitOutcome: dto.waitOutcome });
      if (dto.fromStepId === dto.toStepId) problems.push({ field: 'toStepId', code: 'invalid_transition', message: 'a step cannot lead to itself' });
      if (problems.length) throw validationError(problems);
      const existing = await this.repository.unorderedTransitionsOfWorkflow(workflowId, em, from.id);
      if (slotTaken(existing, from.type, dto.branch, dto.waitOutcome)) {
        throw transitionSlotTaken(from.type === 'CONDITION' ? `a "${dto.branch}" branch` : from.type === 'WAIT_FOR_EVENT' ? `a ${dto.waitOutcome} outcome` : 'an outgoing transition');
      }
      transition = await this.repository.insertTransitionOfWorkflow(
        workflowId,
        {
          fromStepId: from.id,
          toStepId: to.id,
          branch: (dto.branch as WorkflowTransition['branch']) ?? null,
          waitOutcome: (dto.waitOutcome as WorkflowTransition['waitOutcome']) ?? null,
        },
        em,
      );
      return true;
    });
    return toTransitionResponse(transition);
  }

  async removeTransition(projectId: string, workflowId: string, transitionId: string): Promise<void> {
    await this.mutate(projectId, workflowId, async (em) => {
      if (!(await this.repository.deleteTransitionOfWorkflow(workflowId, transitionId, em))) throw transitionNotFound();
      return true;
    });
  }

  /** The workflow of this project, or 404 (a malformed path id is answered by the controller's pipe). */
  async findOne(projectId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<Workflow> {
    const workflow = await this.repository.findOne(projectId, id, manager);
    if (!workflow) throw workflowNotFound();
    return workflow;
  }

  /** The graph of a version; written with every change, so it exists for every version executions name. */
  async graph(workflowId: string, version: number): Promise<WorkflowGraph> {
    const graph = await this.repository.graphAnyProject(workflowId, version);
    if (!graph) throw new Error(`workflow ${workflowId} has no version ${version}`);
    return graph;
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
        await this.writeVersion(em, id, await this.repository.bumpVersion(projectId, id, em));
      }
    });
  }

  private async lock(em: EntityManager, projectId: string, id: string): Promise<Workflow> {
    const workflow = await this.repository.findOneForUpdate(projectId, id, em);
    if (!workflow) throw workflowNotFound();
    return workflow;
  }

  private async findStep(em: EntityManager, workflowId: string, stepId: string): Promise<WorkflowStep> {
    const step = await this.repository.findStepOfWorkflow(workflowId, stepId, em);
    if (!step) throw stepNotFound();
    return step;
  }

  private async writeVersion(em: EntityManager, workflowId: string, version: number): Promise<void> {
    await this.repository.writeVersionOfWorkflow(workflowId, version, em);
  }

  private async load(em: EntityManager, projectId: string, id: string): Promise<WorkflowResponse> {
    const workflow = await this.findOne(projectId, id, em);
    const steps = await this.repository.stepsOfWorkflow(id, em);
    const transitions = await this.repository.transitionsOfWorkflow(id, em);
    return toWorkflowResponse(workflow, steps, transitions);
  }
}
