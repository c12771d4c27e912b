import { Injectable, OnModuleInit } from '@nestjs/common';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry, UsageSubject, UsageRef } from '../../platform/usage/usage.registry';
import { SegmentsRepository } from './segments.repository';

/** Segments' answers to the usage registry (their filter trees) and the `hasSegments` onboarding step. */
@Injectable()
export class SegmentsUsage implements OnModuleInit {
  constructor(
    private readonly segments: SegmentsRepository,
    private readonly usage: UsageRegistry,
    private readonly setup: SetupProbes,
  ) {}

  onModuleInit(): void {
    this.usage.register(async (projectId, subject) => ({ segments: await this.referencing(projectId, subject) }));
    this.setup.register('hasSegments', (projectId) => this.segments.hasAny(projectId));
  }

  private async referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    const matcher = jsonReferenceMatcher(subject);
    if (!matcher) return [];
    const test = jsonReferenceCondition('s.condition', matcher, 2);
    return this.segments.referencing(projectId, test);
  }
}
