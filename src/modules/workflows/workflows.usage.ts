import { Injectable, OnModuleInit } from '@nestjs/common';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { WorkflowsRepository } from './workflows.repository';

/** Workflows' answers to the usage registry: the steps (TRIGGER, WAIT_FOR_EVENT, CONDITION, UPDATE_CONTACT, SEND_EMAIL) that reference a subject. */
@Injectable()
export class WorkflowsUsage implements OnModuleInit {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly usage: UsageRegistry,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ workflows: await this.repository.referencing(projectId, subject) }));
  }
}
