import { Injectable, OnModuleInit } from '@nestjs/common';
import { type PruneBatch, RetentionRegistry } from '../projects';
import { EmailRetentionRepository } from './email-retention.repository';

/**
 * Email content under the project's retention (projects' `RetentionRegistry`). Reads decide
 * expiry themselves (`contentExpiredAt`, at once); this deletes it in the background: per batch of
 * 1,000 emails past `emailContentDays`, their variables and content reference are cleared, then the
 * content rows no email or audience holds any more are deleted, each step a short transaction of
 * its own. The email rows, their subject and metadata stay until `emailsDays` (whole months
 * dropped, with their months of content, the rest in batches: docs/history-tables.md). The storage view counts the tables.
 */
@Injectable()
export class EmailsRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly retention: EmailRetentionRepository,
  ) {}

  onModuleInit(): void {
    this.registry.registerPruner({ name: 'email-content', kind: 'emailContentDays', batchSize: 1_000, resumes: true, prune: (projectId, range, limit) => this.pruneContent(projectId, range, limit) });
    this.registry.registerPruner({
      name: 'emails',
      kind: 'emailsDays',
      batchSize: 500,
      partitioned: 'emails',
      afterMonthDrops: async () => {
        await this.retention.dropContentMonths();
      },
      prune: async (projectId, range, limit) => ({ count: await this.retention.deleteEmails(projectId, range, limit) }),
    });
    this.registry.registerTable({ name: 'emails', table: 'emails', count: 'indexed', oldest: 'created_at' });
    // No index leads email_contents with the project: the planner's estimate.
    this.registry.registerTable({ name: 'emailContents', table: 'email_contents', count: 'estimated' });
  }

  /** One batch: how many emails lost their content (fewer than `limit`: the range is done) and the creation time of the last. */
  async pruneContent(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<PruneBatch> {
    const { cleared, contentIds, lastAt } = await this.retention.clearContent(projectId, range, limit);
    await this.retention.deleteUnreferencedContents(projectId, contentIds);
    return { count: cleared, lastAt };
  }
}
