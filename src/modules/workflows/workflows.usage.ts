import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import { UsageRef, UsageRegistry, UsageSubject } from '../../platform/usage/usage.registry';

/** Workflows' answers to the usage registry: the steps (TRIGGER, WAIT_FOR_EVENT, CONDITION, UPDATE_CONTACT, SEND_EMAIL) that reference a subject. */
@Injectable()
export class WorkflowsUsage implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usage: UsageRegistry,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ workflows: await this.referencing(projectId, subject) }));
  }

  private async referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    const select = `SELECT w.id::text AS id, w.name, s.id::text AS "stepId" FROM workflow_steps s JOIN workflows w ON w.id = s.workflow_id WHERE w.project_id = $1`;
    if (subject.kind === 'template') {
      return this.dataSource.query(`${select} AND s.type = 'SEND_EMAIL' AND s.config->>'templateId' = $2 LIMIT 1000`, [projectId, subject.id]);
    }
    const matcher = jsonReferenceMatcher(subject);
    if (!matcher) return [];
    const test = jsonReferenceCondition('s.config', matcher, 2);
    return this.dataSource.query(`${select} AND (${test.sql}) LIMIT 1000`, [projectId, ...test.params]);
  }
}
