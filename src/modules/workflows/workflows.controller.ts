import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OffsetPageQuery } from '../../platform/http/offset-page.query';
import { ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { ListExecutionsQuery } from './dto/list-executions.query';
import { CreateStepDto, CreateTransitionDto, CreateWorkflowDto, StartExecutionDto, UpdateStepDto, UpdateWorkflowDto } from './dto/workflow.dto';
import { CancelAllResponse, ExecutionPage, ExecutionResponse, StepCountsResponse, StepResponse, TransitionResponse, WorkflowFieldsResponse, WorkflowPage, WorkflowResponse } from './dto/workflow.response';
import { ExecutionsService } from './executions.service';
import { WorkflowFields } from './workflow-fields';
import { WorkflowsService } from './workflows.service';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { executionNotFound, stepNotFound, transitionNotFound, workflowNotFound } from './workflows.errors';

const WorkflowId = new ParseUuidPipe(workflowNotFound);
const StepId = new ParseUuidPipe(stepNotFound);
const TransitionId = new ParseUuidPipe(transitionNotFound);
const ExecutionId = new ParseUuidPipe(executionNotFound);

@ApiTags('workflows')
@Controller('workflows')
export class WorkflowsController {
  constructor(
    private readonly workflows: WorkflowsService,
    private readonly executions: ExecutionsService,
    private readonly fieldList: WorkflowFields,
  ) {}

  @SecretKey()
  @Get()
  @ApiOperation({ summary: 'List workflows' })
  @ApiErrors(422)
  @ApiJson(200, WorkflowPage, 'A page of workflows, newest first, with their steps and transitions')
  list(@CurrentProject() projectId: string, @Query() query: OffsetPageQuery): Promise<WorkflowPage> {
    return this.workflows.list(projectId, query);
  }

  /** Declared before `:id` so the static path wins. */
  @SecretKey()
  @Get('fields')
  @ApiOperation({ summary: 'List the fields a condition can compare' })
  @ApiJson(200, WorkflowFieldsResponse, 'Fields a CONDITION step can compare: contact fields, recent trigger-event keys, execution-context keys')
  fields(@CurrentProject() projectId: string): Promise<WorkflowFieldsResponse> {
    return this.fieldList.list(projectId);
  }

  @SecretKey()
  @Post()
  @ApiOperation({ summary: 'Create a workflow' })
  @ApiErrors(422)
  @ApiJson(201, WorkflowResponse, 'The workflow (EVENT, disabled) with its TRIGGER entry step')
  create(@CurrentProject() projectId: string, @Body() dto: CreateWorkflowDto): Promise<WorkflowResponse> {
    return this.workflows.create(projectId, dto);
  }

  @SecretKey()
  @Get(':id')
  @ApiOperation({ summary: 'Get a workflow' })
  @ApiErrors([404, 'No such workflow'])
  @ApiJson(200, WorkflowResponse, 'The workflow with its steps and transitions')
  get(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string): Promise<WorkflowResponse> {
    return this.workflows.get(projectId, id);
  }

  @SecretKey()
  @Patch(':id')
  @ApiOperation({ summary: 'Update a workflow' })
  @ApiErrors([404, 'No such workflow'], 422)
  @ApiJson(200, WorkflowResponse, 'The updated workflow')
  update(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Body() dto: UpdateWorkflowDto): Promise<WorkflowResponse> {
    return this.workflows.update(projectId, id, dto);
  }

  @SecretKey()
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a workflow' })
  @ApiErrors([404, 'No such workflow'], [409, 'The workflow has RUNNING or WAITING executions'])
  @HttpCode(204)
  @ApiNoContent('Deleted (409 while it has RUNNING or WAITING executions)')
  async remove(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string): Promise<void> {
    await this.workflows.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/steps')
  @ApiOperation({ summary: 'Add a step' })
  @ApiErrors([404, 'No such workflow'], 422)
  @ApiJson(201, StepResponse, 'The new step (connect it with POST /workflows/:id/transitions)')
  addStep(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Body() dto: CreateStepDto): Promise<StepResponse> {
    return this.workflows.addStep(projectId, id, dto);
  }

  @SecretKey()
  @Patch(':id/steps/:stepId')
  @ApiOperation({ summary: 'Update a step' })
  @ApiErrors([404, 'No such workflow or step'], 422)
  @ApiJson(200, StepResponse, 'The updated step')
  updateStep(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Param('stepId', StepId) stepId: string, @Body() dto: UpdateStepDto): Promise<StepResponse> {
    return this.workflows.updateStep(projectId, id, stepId, dto);
  }

  @SecretKey()
  @Delete(':id/steps/:stepId')
  @ApiOperation({ summary: 'Delete a step' })
  @ApiErrors([404, 'No such workflow or step'], [409, 'The TRIGGER step, or a step with several outgoing transitions to splice out'])
  @HttpCode(204)
  @ApiNoContent('Deleted with its transitions; with splice=true its predecessors are linked to its single successor (the TRIGGER step cannot be deleted: 409)')
  async removeStep(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Param('stepId', StepId) stepId: string, @Query('splice') splice?: string): Promise<void> {
    await this.workflows.removeStep(projectId, id, stepId, splice === 'true');
  }

  @SecretKey()
  @Post(':id/transitions')
  @ApiOperation({ summary: 'Connect two steps' })
  @ApiErrors([404, 'No such workflow'], [409, 'The step already has that transition (its branch, outcome or single successor)'], 422)
  @ApiJson(201, TransitionResponse, 'The new transition')
  addTransition(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Body() dto: CreateTransitionDto): Promise<TransitionResponse> {
    return this.workflows.addTransition(projectId, id, dto);
  }

  @SecretKey()
  @Delete(':id/transitions/:transitionId')
  @ApiOperation({ summary: 'Delete a transition' })
  @ApiErrors([404, 'No such workflow or transition'])
  @HttpCode(204)
  @ApiNoContent('Deleted')
  async removeTransition(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Param('transitionId', TransitionId) transitionId: string): Promise<void> {
    await this.workflows.removeTransition(projectId, id, transitionId);
  }

  @SecretKey()
  @Post(':id/executions')
  @ApiOperation({ summary: 'Start an execution for a contact' })
  @ApiErrors([404, 'No such workflow'], [409, 'The contact already has an active execution of this workflow'], 422)
  @ApiJson(201, ExecutionResponse, 'The started execution')
  start(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Body() dto: StartExecutionDto): Promise<ExecutionResponse> {
    return this.executions.start(projectId, id, dto);
  }

  @SecretKey()
  @Get(':id/executions')
  @ApiOperation({ summary: 'List the executions of a workflow' })
  @ApiErrors([404, 'No such workflow'], 422)
  @ApiJson(200, ExecutionPage, 'A page of executions, filterable by status')
  executionList(
    @CurrentProject() projectId: string,
    @Param('id', WorkflowId) id: string,
    @Query() query: ListExecutionsQuery,
  ): Promise<ExecutionPage> {
    return this.executions.list(projectId, id, query);
  }

  @SecretKey()
  @Get(':id/step-counts')
  @ApiOperation({ summary: 'Count the active executions at each step' })
  @ApiErrors([404, 'No such workflow'])
  @ApiJson(200, StepCountsResponse, 'Per step, how many executions are RUNNING or WAITING at it now (steps with none are left out)')
  stepCounts(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string): Promise<StepCountsResponse> {
    return this.executions.stepCounts(projectId, id);
  }

  /** Declared before `executions/:executionId`. */
  @SecretKey()
  @Post(':id/executions/cancel-all')
  @ApiOperation({ summary: 'Cancel every active execution' })
  @ApiErrors([404, 'No such workflow'])
  @HttpCode(200)
  @ApiJson(200, CancelAllResponse, 'Every active execution cancelled')
  cancelAll(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string): Promise<CancelAllResponse> {
    return this.executions.cancelAll(projectId, id);
  }

  @SecretKey()
  @Get(':id/executions/:executionId')
  @ApiOperation({ summary: 'Get an execution' })
  @ApiErrors([404, 'No such workflow or execution'])
  @ApiJson(200, ExecutionResponse, 'The execution with the steps it ran')
  execution(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Param('executionId', ExecutionId) executionId: string): Promise<ExecutionResponse> {
    return this.executions.get(projectId, id, executionId);
  }

  @SecretKey()
  @Delete(':id/executions/:executionId')
  @ApiOperation({ summary: 'Cancel an execution' })
  @ApiErrors([404, 'No such workflow or execution'], [409, 'The execution is not RUNNING or WAITING'])
  @HttpCode(204)
  @ApiNoContent('Cancelled (a RUNNING or WAITING execution; a cancelled DELAY or wait never resumes)')
  async cancel(@CurrentProject() projectId: string, @Param('id', WorkflowId) id: string, @Param('executionId', ExecutionId) executionId: string): Promise<void> {
    await this.executions.cancel(projectId, id, executionId);
  }
}
