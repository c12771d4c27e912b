import { Injectable, OnModuleInit } from '@nestjs/common';
import { keysetBatches, PersonalDataRegistry } from '../contacts';
import { toExecutionResponse } from './dto/workflow.response';
import { ExecutionsRepository } from './executions.repository';

const BATCH = 100;

/** The `executions` section of a contact's personal data (contacts' `PersonalDataRegistry`): as the executions list shows them, newest first. */
@Injectable()
export class WorkflowsPersonalData implements OnModuleInit {
  constructor(
    private readonly registry: PersonalDataRegistry,
    private readonly executions: ExecutionsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'executions',
      export: (projectId, subject) =>
        keysetBatches<unknown, { at: string; id: string }>(async (after) => {
          const { rows, next } = await this.executions.contactPage(projectId, subject.id, after, BATCH);
          return { items: rows.map((row) => toExecutionResponse(row)), next };
        }),
      erase: (projectId, subject, manager) => this.executions.removeOfContact(projectId, subject.id, manager),
    });
  }
}
