import { Injectable, OnModuleInit } from '@nestjs/common';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { CampaignsRepository } from './campaigns.repository';

/** Campaigns' answers to the usage registry and the `hasCampaigns` onboarding step. */
@Injectable()
export class CampaignsUsage implements OnModuleInit {
  constructor(
    private readonly repository: CampaignsRepository,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ campaigns: await this.repository.referencing(projectId, subject) }));
    this.setup.register('hasCampaigns', (projectId) => this.repository.hasAny(projectId));
  }
}
