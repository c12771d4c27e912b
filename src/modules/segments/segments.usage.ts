import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry, UsageSubject, UsageRef } from '../../platform/usage/usage.registry';

/** Segments' answers to the usage registry (their filter trees) and the `hasSegments` onboarding step. */
@Injectable()
export class SegmentsUsage implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ segments: await this.referencing(projectId, subject) }));
    this.setup.register('hasSegments', async (projectId) => {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM segments WHERE project_id = $1 LIMIT 1`, [projectId]);
      return rows.length > 0;
    });
  }

  private async referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    const matcher = jsonReferenceMatcher(subject);
    if (!matcher) return [];
    const test = jsonReferenceCondition('s.condition', matcher, 2);
    return this.dataSource.query(`SELECT s.id::text AS id, s.name FROM segments s WHERE s.project_id = $1 AND (${test.sql}) LIMIT 1000`, [projectId, ...test.params]);
  }
}
