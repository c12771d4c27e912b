import { Injectable, OnModuleInit } from '@nestjs/common';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { referencesOf } from '../../platform/usage/usage-response';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import type { TemplateUsageResponse } from './dto/template.response';
import { TemplatesRepository } from './templates.repository';
import { ActivityRegistry } from '../activity';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

/**
 * Templates in the usage registry: the templates sending from a domain (the domain delete 409),
 * the `hasTemplates` onboarding step, and `GET /templates/:id/usage` answered from the campaigns
 * and workflow steps their modules report; template names on email activity (the activity registry).
 */
@Injectable()
export class TemplateUsage implements OnModuleInit {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
    private readonly activity: ActivityRegistry,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => {
      if (subject.kind !== 'domain') return {};
      return { templates: await this.repository.sendingFromDomain(projectId, subject.domain) };
    });
    this.setup.register('hasTemplates', (projectId) => this.repository.hasAny(projectId));
    // Ids come from event data: only well-formed ones are looked up, by the primary key.
    this.activity.registerTemplateNames(async (projectId, ids) => new Map((await this.repository.names(projectId, ids.filter(isUuid))).map((r) => [r.id, r.name])));
  }

  async of(projectId: string, templateId: string): Promise<TemplateUsageResponse> {
    return referencesOf(await this.usage.find(projectId, { kind: 'template', id: templateId }), { steps: true });
  }
}
