import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../platform/queues/queues';
import { BillingModule } from '../billing/billing.module';
import { ContactsModule } from '../contacts/contacts.module';
import { EmailsModule } from '../emails/emails.module';
import { EventsModule } from '../events/events.module';
import { EventConsumerRegistry } from '../events/outbox/event-consumers';
import { ProjectsModule } from '../projects/projects.module';
import { TemplatesModule } from '../templates/templates.module';
import { ConditionEvaluator } from './engine/condition-evaluator';
import { WorkflowEngine } from './engine/workflow-engine';
import { WorkflowQueue } from './engine/workflow-queue';
import { WorkflowStepProcessor } from './engine/workflow-step.processor';
import { WorkflowSweeper } from './engine/workflow-sweeper';
import { WorkflowTriggers } from './engine/workflow-triggers';
import { WorkflowExecutionStep } from './entities/workflow-execution-step.entity';
import { WorkflowExecution } from './entities/workflow-execution.entity';
import { WorkflowStep } from './entities/workflow-step.entity';
import { WorkflowTransition } from './entities/workflow-transition.entity';
import { WorkflowVersion } from './entities/workflow-version.entity';
import { Workflow } from './entities/workflow.entity';
import { ExecutionsService } from './executions.service';
import { WebhookStep } from './webhook/webhook-step';
import { WorkflowFields } from './workflow-fields';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsService } from './workflows.service';
import { WorkflowsUsage } from './workflows.usage';
import { WorkflowsActivity } from './workflows.activity';
import { ActivityModule } from '../activity/activity.module';

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
    ExecutionsService,
    WorkflowFields,
    WorkflowQueue,
    WorkflowEngine,
    WorkflowStepProcessor,
    WorkflowSweeper,
    WorkflowTriggers,
    ConditionEvaluator,
    WebhookStep,
    WorkflowsUsage,
    WorkflowsActivity,
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
