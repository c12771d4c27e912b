import { Injectable, OnModuleInit } from '@nestjs/common';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { WorkflowsRepository } from './workflows.repository';

/**
 * Workflows' answers to the usage registry (the steps — TRIGGER, WAIT_FOR_EVENT, CONDITION,
 * UPDATE_CONTACT, SEND_EMAIL — that reference a subject) and the `hasWorkflows` onboarding step.
 */
@Injectable()
export class WorkflowsUsage implements OnModuleInit {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ workflows: await this.repository.referencing(projectId, subject) }));
    this.setup.register('hasWorkflows', (projectId) => this.repository.hasAny(projectId));
  }
}
