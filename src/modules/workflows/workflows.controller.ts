import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { OffsetPage } from '../../platform/http/pagination';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CreateStepDto, CreateTransitionDto, CreateWorkflowDto, StartExecutionDto, UpdateStepDto, UpdateWorkflowDto } from './dto/workflow.dto';
import type { ExecutionResponse, StepResponse, TransitionResponse, WorkflowPage, WorkflowResponse } from './dto/workflow.response';
import { ExecutionsService } from './executions.service';
import { WorkflowField, WorkflowFields } from './workflow-fields';
import { WorkflowsService } from './workflows.service';

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
  list(@CurrentProject() projectId: string, @Query() query: { page?: string; pageSize?: string }): Promise<WorkflowPage> {
    return this.workflows.list(projectId, query);
  }

  /** Declared before `:id` so the static path wins. */
  @SecretKey()
  @Get('fields')
  fields(@CurrentProject() projectId: string): Promise<{ fields: WorkflowField[] }> {
    return this.fieldList.list(projectId);
  }

  @SecretKey()
  @Post()
  create(@CurrentProject() projectId: string, @Body() dto: CreateWorkflowDto): Promise<WorkflowResponse> {
    return this.workflows.create(projectId, dto);
  }

  @SecretKey()
  @Get(':id')
  get(@CurrentProject() projectId: string, @Param('id') id: string): Promise<WorkflowResponse> {
    return this.workflows.get(projectId, id);
  }

  @SecretKey()
  @Patch(':id')
  update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateWorkflowDto): Promise<WorkflowResponse> {
    return this.workflows.update(projectId, id, dto);
  }

  @SecretKey()
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.workflows.remove(projectId, id);
  }

  @SecretKey()
  @Post(':id/steps')
  addStep(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: CreateStepDto): Promise<StepResponse> {
    return this.workflows.addStep(projectId, id, dto);
  }

  @SecretKey()
  @Patch(':id/steps/:stepId')
  updateStep(@CurrentProject() projectId: string, @Param('id') id: string, @Param('stepId') stepId: string, @Body() dto: UpdateStepDto): Promise<StepResponse> {
    return this.workflows.updateStep(projectId, id, stepId, dto);
  }

  @SecretKey()
  @Delete(':id/steps/:stepId')
  @HttpCode(204)
  async removeStep(@CurrentProject() projectId: string, @Param('id') id: string, @Param('stepId') stepId: string, @Query('splice') splice?: string): Promise<void> {
    await this.workflows.removeStep(projectId, id, stepId, splice === 'true');
  }

  @SecretKey()
  @Post(':id/transitions')
  addTransition(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: CreateTransitionDto): Promise<TransitionResponse> {
    return this.workflows.addTransition(projectId, id, dto);
  }

  @SecretKey()
  @Delete(':id/transitions/:transitionId')
  @HttpCode(204)
  async removeTransition(@CurrentProject() projectId: string, @Param('id') id: string, @Param('transitionId') transitionId: string): Promise<void> {
    await this.workflows.removeTransition(projectId, id, transitionId);
  }

  @SecretKey()
  @Post(':id/executions')
  start(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: StartExecutionDto): Promise<ExecutionResponse> {
    return this.executions.start(projectId, id, dto);
  }

  @SecretKey()
  @Get(':id/executions')
  executionList(
    @CurrentProject() projectId: string,
    @Param('id') id: string,
    @Query() query: { status?: string; page?: string; pageSize?: string },
  ): Promise<OffsetPage<ExecutionResponse>> {
    return this.executions.list(projectId, id, query);
  }

  /** Declared before `executions/:executionId`. */
  @SecretKey()
  @Post(':id/executions/cancel-all')
  @HttpCode(200)
  cancelAll(@CurrentProject() projectId: string, @Param('id') id: string): Promise<{ cancelled: number }> {
    return this.executions.cancelAll(projectId, id);
  }

  @SecretKey()
  @Get(':id/executions/:executionId')
  execution(@CurrentProject() projectId: string, @Param('id') id: string, @Param('executionId') executionId: string): Promise<ExecutionResponse> {
    return this.executions.get(projectId, id, executionId);
  }

  @SecretKey()
  @Delete(':id/executions/:executionId')
  @HttpCode(204)
  async cancel(@CurrentProject() projectId: string, @Param('id') id: string, @Param('executionId') executionId: string): Promise<void> {
    await this.executions.cancel(projectId, id, executionId);
  }
}
