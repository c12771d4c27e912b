import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { referencesOf } from '../../platform/usage/usage-response';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { SENDER_DOMAIN_MATCHES } from '../domains/sender-domain';
import type { TemplateUsageResponse } from './dto/template.response';

/**
 * Templates in the usage registry: the templates sending from a domain (the domain delete 409),
 * the `hasTemplates` onboarding step, and `GET /templates/:id/usage` answered from the campaigns
 * and workflow steps their modules report.
 */
@Injectable()
export class TemplateUsage implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => {
      if (subject.kind !== 'domain') return {};
      return {
        templates: await this.dataSource.query(`SELECT id::text AS id, name FROM templates WHERE project_id = $1 AND ${SENDER_DOMAIN_MATCHES('from_address', 2)}`, [
          projectId,
          subject.domain,
        ]),
      };
    });
    this.setup.register('hasTemplates', async (projectId) => {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM templates WHERE project_id = $1 LIMIT 1`, [projectId]);
      return rows.length > 0;
    });
  }

  async of(projectId: string, templateId: string): Promise<TemplateUsageResponse> {
    return referencesOf(await this.usage.find(projectId, { kind: 'template', id: templateId }), { steps: true });
  }
}
