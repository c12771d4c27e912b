import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../platform/queues/queues';
import { BillingModule } from '../billing';
import { ContactsModule } from '../contacts';
import { EmailsModule } from '../emails';
import { EventsModule, EventConsumerRegistry } from '../events';
import { ProjectsModule } from '../projects';
import { TemplatesModule } from '../templates';
import { ConditionEvaluator } from './engine/condition-evaluator';
import { ExecutionsStore } from './engine/executions.store';
import { ExecutionsRepository } from './executions.repository';
import { STEP_EXECUTORS } from './engine/step-executor';
import { StepScheduler } from './engine/step-scheduler';
import { ConditionStep } from './engine/steps/condition.step';
import { DelayStep } from './engine/steps/delay.step';
import { ExitStep } from './engine/steps/exit.step';
import { SendEmailStep } from './engine/steps/send-email.step';
import { StepExecutors } from './engine/steps/step-executors';
import { TriggerStep } from './engine/steps/trigger.step';
import { UpdateContactStep } from './engine/steps/update-contact.step';
import { WaitForEventStep } from './engine/steps/wait-for-event.step';
import { WebhookStep } from './engine/steps/webhook.step';
import { WorkflowEngine } from './engine/workflow-engine';
import { WorkflowQueue } from './engine/workflow-queue';
import { WorkflowStepProcessor } from './worker/workflow-step.processor';
import { WorkflowSweeper } from './worker/workflow-sweeper';
import { WorkflowTriggers } from './engine/workflow-triggers';
import { WorkflowExecutionStep } from './entities/workflow-execution-step.entity';
import { WorkflowExecution } from './entities/workflow-execution.entity';
import { WorkflowStep } from './entities/workflow-step.entity';
import { WorkflowTransition } from './entities/workflow-transition.entity';
import { WorkflowVersion } from './entities/workflow-version.entity';
import { Workflow } from './entities/workflow.entity';
import { ExecutionsService } from './executions.service';
import { WorkflowFields } from './workflow-fields';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsService } from './workflows.service';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsUsage } from './workflows.usage';
import { WorkflowsActivity } from './workflows.activity';
import { WorkflowsPersonalData } from './workflows.personal-data';
import { ActivityModule } from '../activity';

/** One executor per step type (`StepExecutors` refuses to start without one for each). */
const STEP_EXECUTOR_CLASSES = [TriggerStep, SendEmailStep, DelayStep, WaitForEventStep, ConditionStep, WebhookStep, UpdateContactStep, ExitStep];

@Module({
  imports: [
    TypeOrmModule.forFeature([Workflow, WorkflowStep, WorkflowTransition, WorkflowVersion, WorkflowExecution, WorkflowExecutionStep]),
    BullModule.registerQueue({ name: QUEUES.workflowStep }),
    ProjectsModule,
    ContactsModule,
    TemplatesModule,
    EmailsModule,
    EventsModule,
    BillingModule,
    ActivityModule,
  ],
  controllers: [WorkflowsController],
  providers: [
    WorkflowsService,
    WorkflowsRepository,
    ExecutionsService,
    WorkflowFields,
    WorkflowQueue,
    ExecutionsStore,
    ExecutionsRepository,
    StepScheduler,
    ...STEP_EXECUTOR_CLASSES,
    { provide: STEP_EXECUTORS, useFactory: (...executors: unknown[]) => executors, inject: STEP_EXECUTOR_CLASSES },
    StepExecutors,
    WorkflowEngine,
    WorkflowStepProcessor,
    WorkflowSweeper,
    WorkflowTriggers,
    ConditionEvaluator,
    WorkflowsUsage,
    WorkflowsActivity,
    WorkflowsPersonalData,
  ],
  exports: [WorkflowsService],
})
export class WorkflowsModule implements OnModuleInit {
  constructor(
    private readonly consumers: EventConsumerRegistry,
    private readonly triggers: WorkflowTriggers,
  ) {}

  /** One outbox consumer starts workflows and resumes waits (any process running workers). */
  onModuleInit(): void {
    this.consumers.register(this.triggers);
  }
}
