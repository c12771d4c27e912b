import { Injectable } from '@nestjs/common';
import { AppError, type FieldError } from '../../../platform/http/app-error';
import type { Fragment } from '../../../platform/database/sql-fragment';
import { AudienceService } from '../../segments';
import type { FilterTree } from '../../filters';
import type { AudienceType } from '../entities/campaign.entity';
import { TopicsService } from '../../topics';
import type { TopicRule } from '../../topics';

export interface AudienceSpec {
  audienceType: AudienceType;
  segmentId: string | null;
  audienceCondition: Record<string, unknown> | null;
  topicId?: string | null;
}

/** Which contacts (alias `c`, project-scoped) a campaign's audience holds, from the segments filter engine. */
@Injectable()
export class CampaignAudience {
  constructor(
    private readonly audiences: AudienceService,
    private readonly topics: TopicsService,
  ) {}

  /** The campaign's topic rule (its audience is narrowed to the topic's members), or null; a deleted topic narrows nothing. */
  async topic(projectId: string, spec: Pick<AudienceSpec, 'topicId'>): Promise<TopicRule | null> {
    return spec.topicId ? this.topics.findRule(projectId, spec.topicId) : null;
  }

  /** 422 items for the audience fields: the type's required field, a segment not of this project, a malformed tree. */
  async problems(projectId: string, spec: AudienceSpec): Promise<FieldError[]> {
    if (spec.audienceType === 'SEGMENT' && !spec.segmentId) return [{ field: 'segmentId', message: 'segmentId is required for a SEGMENT audience', code: 'required' }];
    if (spec.audienceType === 'FILTERED' && !spec.audienceCondition) {
      return [{ field: 'audienceCondition', message: 'audienceCondition is required for a FILTERED audience', code: 'required' }];
    }
    try {
      if (spec.topicId) await this.topics.ruleOfId(projectId, spec.topicId);
      if (spec.audienceType === 'FILTERED') await this.audiences.validateTree(projectId, spec.audienceCondition, { root: 'audienceCondition' });
      if (spec.audienceType === 'SEGMENT') await this.audiences.audienceCondition(projectId, { segmentId: spec.segmentId! });
      return [];
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 422 && err.extra.errors) return err.extra.errors;
      throw err;
    }
  }

  condition(projectId: string, spec: AudienceSpec): Promise<Fragment> {
    if (spec.audienceType === 'SEGMENT') return this.audiences.audienceCondition(projectId, { segmentId: spec.segmentId! });
    if (spec.audienceType === 'FILTERED') return this.audiences.audienceCondition(projectId, { tree: spec.audienceCondition as unknown as FilterTree });
    return this.audiences.audienceCondition(projectId, 'ALL');
  }
}
