import { Injectable } from '@nestjs/common';
import { validationError } from '../../platform/http/app-error';
import { offsetPage, OffsetPage, parseOffsetQuery } from '../../platform/http/pagination';
import { ContactsService } from '../contacts';
import type { StartExecutionDto } from './dto/workflow.dto';
import { ExecutionResponse, ExecutionStepResponse, StepCountsResponse, toExecutionResponse, toExecutionStepResponse } from './dto/workflow.response';
import { ExecutionsStore } from './engine/executions.store';
import { ExecutionsRepository, ExecutionWithContact } from './executions.repository';
import { WorkflowQueue } from './engine/workflow-queue';
import { EXECUTION_STATUSES, ExecutionStatus } from './entities/workflow-execution.entity';
import { executionAlreadyActive, executionNotActive, executionNotFound } from './workflows.errors';
import { WorkflowsService } from './workflows.service';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

/** docs/decisions.md#workflows: a manual start's `context` is at most 64 KB (as JSON). */
export const MAX_CONTEXT_BYTES = 64 * 1024;

/** Starting executions by hand, reading and cancelling them. */
@Injectable()
export class ExecutionsService {
  constructor(
    private readonly workflows: WorkflowsService,
    private readonly contacts: ContactsService,
    private readonly queue: WorkflowQueue,
    private readonly store: ExecutionsStore,
    private readonly reads: ExecutionsRepository,
  ) {}

  /** `POST /workflows/:id/executions`: whether or not the workflow is enabled; 409 while the contact has an active one. */
  async start(projectId: string, workflowId: string, dto: StartExecutionDto): Promise<ExecutionResponse> {
    const workflow = await this.workflows.findOne(projectId, workflowId);
    const context = dto.context ?? {};
    if (Buffer.byteLength(JSON.stringify(context)) > MAX_CONTEXT_BYTES) {
      throw validationError([{ field: 'context', code: 'too_big', message: `context is at most ${MAX_CONTEXT_BYTES / 1024} KB as JSON` }]);
    }
    const contact = await this.contacts.findById(projectId, dto.contactId);
    if (!contact) throw validationError([{ field: 'contactId', code: 'not_found', message: 'contactId is not a contact of this project', received: dto.contactId }]);
    const id = await this.store.insertManual(projectId, workflow.id, contact.id, context);
    if (id === null) throw executionAlreadyActive();
    // The execution as started: read before its first step job can move it on.
    const started = await this.get(projectId, workflowId, id);
    await this.queue.stepsOrLeaveForSweep([{ executionId: id, seq: 0 }]);
    return started;
  }

  async list(projectId: string, workflowId: string, query: { status?: string; page?: unknown; pageSize?: unknown }): Promise<OffsetPage<ExecutionResponse>> {
    const workflow = await this.workflows.findOne(projectId, workflowId);
    const { page, pageSize, offset } = parseOffsetQuery(query);
    const status = query.status?.toUpperCase();
    if (status !== undefined && !(EXECUTION_STATUSES as readonly string[]).includes(status)) {
      throw validationError([{ field: 'status', code: 'invalid_enum_value', message: `status must be one of ${EXECUTION_STATUSES.join(', ')}`, received: query.status }]);
    }
    const [rows, total] = await this.reads.listPage(projectId, workflow.id, status as ExecutionStatus | undefined, offset, pageSize);
    return offsetPage(rows.map((e) => toExecutionResponse(e)), page, pageSize, total);
  }

  async get(projectId: string, workflowId: string, executionId: string): Promise<ExecutionResponse> {
    const execution = await this.find(projectId, workflowId, executionId);
    // An execution that ended within its start holds its records in its row; others' are rows.
    const steps =
      execution.records ??
      (await this.reads.stepRecordsOf(execution)).map(toExecutionStepResponse);
    // The emails its SEND_EMAIL steps queued, by primary key, to show their subject and status.
    const emailId = (s: ExecutionStepResponse) => {
      const id = (s.output as { emailId?: unknown } | null)?.emailId;
      return typeof id === 'string' && isUuid(id) ? id : null;
    };
    const emails = await this.reads.emailsOf(projectId, steps.map(emailId).filter((id): id is string => id !== null));
    return toExecutionResponse(execution, steps.map((s) => ({ ...s, email: emails.get(emailId(s) ?? '') ?? null })));
  }

  /** `GET /workflows/:id/step-counts`: how many active executions are at each step (one grouped statement). */
  async stepCounts(projectId: string, workflowId: string): Promise<StepCountsResponse> {
    const workflow = await this.workflows.findOne(projectId, workflowId);
    return { steps: await this.reads.countsByStep(projectId, workflow.id) };
  }

  /** Stops an active execution; a pending DELAY or WAIT then finds it CANCELLED and never resumes. */
  async cancel(projectId: string, workflowId: string, executionId: string): Promise<void> {
    const execution = await this.find(projectId, workflowId, executionId);
    const cancelled = await this.store.cancel(projectId, workflowId, [execution.id]);
    if (cancelled === 0) throw executionNotActive();
  }

  async cancelAll(projectId: string, workflowId: string): Promise<{ cancelled: number }> {
    const workflow = await this.workflows.findOne(projectId, workflowId);
    return { cancelled: await this.store.cancel(projectId, workflow.id, null) };
  }

  private async find(projectId: string, workflowId: string, executionId: string): Promise<ExecutionWithContact> {
    const workflow = await this.workflows.findOne(projectId, workflowId);
    const execution = await this.reads.findOne(projectId, workflow.id, executionId);
    if (!execution) throw executionNotFound();
    return execution;
  }

}
