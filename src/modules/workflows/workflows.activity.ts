import { Injectable, OnModuleInit } from '@nestjs/common';
import { ActivityRegistry, UpcomingExecution } from '../activity';
import { ExecutionsRepository } from './executions.repository';

/** How many waiting executions `/activity/upcoming` lists (soonest due first). */
const UPCOMING_LIMIT = 100;

/**
 * Workflows' part of activity: waiting executions with their due time (a DELAY's end or a
 * WAIT_FOR_EVENT's timeout; null for a wait without timeout, listed last), and a contact's
 * executions for its timeline.
 */
@Injectable()
export class WorkflowsActivity implements OnModuleInit {
  constructor(
    private readonly executions: ExecutionsRepository,
    private readonly activity: ActivityRegistry,
  ) {}

  onModuleInit(): void {
    this.activity.registerUpcoming('executions', (projectId) => this.waiting(projectId));
    this.activity.registerContactExecutions((projectId, contactId, limit) => this.executions.ofContact(projectId, contactId, limit));
  }

  private waiting(projectId: string): Promise<UpcomingExecution[]> {
    return this.executions.waiting(projectId, UPCOMING_LIMIT);
  }
}
