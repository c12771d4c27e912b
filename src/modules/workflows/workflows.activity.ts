import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActivityRegistry, UpcomingExecution } from '../activity/activity.registry';

/** How many waiting executions `/activity/upcoming` lists (soonest due first). */
const UPCOMING_LIMIT = 100;

/**
 * Workflows' part of activity: waiting executions with their due time (a DELAY's end or a
 * WAIT_FOR_EVENT's timeout; null for a wait without timeout, listed last).
 */
@Injectable()
export class WorkflowsActivity implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityRegistry,
  ) {}

  onModuleInit(): void {
    this.activity.registerUpcoming('executions', (projectId) => this.waiting(projectId));
  }

  private waiting(projectId: string): Promise<UpcomingExecution[]> {
    return this.dataSource.query(
      `SELECT x.id::text AS id, x.workflow_id::text AS "workflowId", w.name AS "workflowName", x.contact_id AS "contactId",
              to_char(x.wake_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "dueAt"
         FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id
        WHERE x.project_id = $1 AND x.status = 'WAITING'
        ORDER BY x.wake_at NULLS LAST, x.id LIMIT $2`,
      [projectId, UPCOMING_LIMIT],
    );
  }
}
