import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRef, UsageRegistry, UsageSubject } from '../../platform/usage/usage.registry';
import { SENDER_DOMAIN_MATCHES } from '../domains/sender-domain';

/** Campaigns' answers to the usage registry and the `hasCampaigns` onboarding step. */
@Injectable()
export class CampaignsUsage implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ campaigns: await this.referencing(projectId, subject) }));
    this.setup.register('hasCampaigns', async (projectId) => {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM campaigns WHERE project_id = $1 LIMIT 1`, [projectId]);
      return rows.length > 0;
    });
  }

  private async referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    if (subject.kind === 'template') {
      return this.dataSource.query(`SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND template_id::text = $2`, [projectId, subject.id]);
    }
    if (subject.kind === 'domain') {
      // Only campaigns that may still send hold their sender's domain (statuses are persisted upper-case).
      return this.dataSource.query(
        `SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND status NOT IN ('SENT', 'CANCELLED') AND ${SENDER_DOMAIN_MATCHES('from_address', 2)}`,
        [projectId, subject.domain],
      );
    }
    // A segment audience names its segment; a filtered audience's condition names fields, events and segments.
    const conditions: string[] = [];
    const params: unknown[] = [projectId];
    if (subject.kind === 'segment') {
      params.push(subject.id);
      conditions.push(`segment_id::text = $${params.length}`);
    }
    const matcher = jsonReferenceMatcher(subject);
    if (matcher) {
      const test = jsonReferenceCondition('audience_condition', matcher, params.length + 1);
      conditions.push(test.sql);
      params.push(...test.params);
    }
    if (conditions.length === 0) return [];
    return this.dataSource.query(`SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND (${conditions.join(' OR ')}) LIMIT 1000`, params);
  }
}
