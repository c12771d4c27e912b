import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fragment } from '../../../platform/database/sql-fragment';
import { AudienceBatchResult, AudienceCursor, AudienceVariants, EmailQueueFacade } from '../../emails';
import { BillingService } from '../../billing';
import type { TopicRule } from '../../topics';
import { CampaignsRepository } from '../campaigns.repository';
import type { Campaign } from '../entities/campaign.entity';
import { campaignContent } from './campaign-content';
import type { StagePlan } from './campaign-stage';

/** One batch as the engine asks for it: the walk's audience, what the stages narrowed, and where the walk stands. */
export interface BatchRequest {
  contentId: string;
  /** The audience (alias `c`) as the stages narrowed it. */
  condition: Fragment;
  /** What may be written now inside it (the stages' `release`), when narrower. */
  released: Fragment;
  topic: TopicRule | null;
  fixedAt: string;
  after: AudienceCursor | null;
  variants?: AudienceVariants;
  limit: number;
  /** The stages' hooks, run in the batch's transaction after its rows. */
  recorders: Array<NonNullable<StagePlan['recordBatch']>>;
}

export type BatchOutcome = 'stopped' | 'held' | (AudienceBatchResult & { restart: boolean });

/**
 * Where a campaign's emails are written: one keyset batch of its audience through the email door,
 * with the monthly limit, the checkpoint (totals and skips) and the stages' records, all in one
 * transaction, so a crash leaves either all or none of it; and the campaign's content row.
 */
@Injectable()
export class CampaignBatches {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly emails: EmailQueueFacade,
    private readonly repository: CampaignsRepository,
    private readonly billing: BillingService,
  ) {}

  write(c: Campaign, b: BatchRequest): Promise<BatchOutcome> {
    return this.dataSource.transaction(async (em: EntityManager) => {
      // Serialises with cancel: a cancelled campaign writes nothing more.
      if ((await this.repository.lockStatus(c.projectId, c.id, em)) !== 'SENDING') return 'stopped' as const;
      // The sender's warm-up cap is the façade's: a full day holds the rest for the next UTC day.
      const result = await this.emails.queueForAudience(c.projectId, em, {
        campaignId: c.id,
        contentId: b.contentId,
        type: c.type,
        fromAddress: c.fromAddress,
        condition: b.released,
        wholeCondition: b.condition,
        topic: b.topic,
        fixedAt: b.fixedAt,
        after: b.after,
        limit: b.limit,
        variants: b.variants,
      });
      if (result === 'held') return 'held' as const;
      // The batch's emails count against the monthly limit in this transaction: over it, nothing of the batch is written.
      await this.billing.consume(em, c.projectId, 'campaigns', result.queuedIds.length);
      const skippedTotal = Object.values(result.skipped).reduce((a, n) => a + (n ?? 0), 0);
      await this.repository.addBatch(c.projectId, c.id, { last: result.last, inserted: result.inserted, skippedTotal, skipped: result.skipped }, em);
      let restart = false;
      for (const record of b.recorders) restart = (await record(em, result)) || restart;
      return { ...result, restart };
    });
  }

  /** The campaign's content row, made once (a second worker racing here keeps the first). */
  async contentOf(c: Campaign, existing: string | null): Promise<string> {
    if (existing) return existing;
    return this.dataSource.transaction(async (em) => {
      const locked = await this.repository.lockContentId(c.projectId, c.id, em);
      if (locked) return locked;
      const id = await this.emails.createContent(c.projectId, campaignContent(c), em);
      await this.repository.setContentId(c.projectId, c.id, id, em);
      return id;
    });
  }
}
