import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { HistoryPartitions } from '../../platform/database/history-partitions';
import { affectedCount } from '../../platform/database/query-results';

/**
 * Emails still being worked on keep their content whatever their age: the pipeline reads it to
 * build the message, and an uncertain email may be sent again. Persisted status values.
 */
const IN_FLIGHT = ['queued', 'sending', 'uncertain'];

/** The retention of email content (docs/retention.md): clearing it from expired emails, deleting the rows no email or audience holds any more. */
@Injectable()
export class EmailRetentionRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly partitions: HistoryPartitions,
  ) {}

  /**
   * Up to `limit` of the project's emails made in the range, oldest first (never one still in
   * flight), and the content rows only they used, in one short transaction: `emailsDays`.
   */
  deleteEmails(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const where = `status NOT IN (${IN_FLIGHT.map((s) => `'${s}'`).join(', ')})`;
      const contents = await this.partitions.deleteBatch(em, 'emails', projectId, range, limit, { where, returning: 'content_id' });
      await deleteUnreferencedContents(
        em,
        projectId,
        contents.filter((id): id is string => typeof id === 'string'),
      );
      return contents.length;
    });
  }

  /**
   * Clears the content of up to `limit` of the project's emails created in `range` (oldest first,
   * by `emails_project_created_idx`): their variables, and their reference to the shared content
   * row, in one statement (row locks on those emails only, for its length). Answers how many emails
   * it cleared, the content rows they referenced and the creation time of the last.
   */
  async clearContent(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<{ cleared: number; contentIds: string[]; lastAt: Date | null }> {
    const [row] = (await this.dataSource.query(
      `WITH batch AS (
         SELECT id, content_id FROM emails
          WHERE project_id = $1 AND created_at < $2 AND ($3::timestamptz IS NULL OR created_at >= $3)
            AND (content_id IS NOT NULL OR variables IS NOT NULL) AND NOT (status = ANY($5::text[]))
          ORDER BY created_at LIMIT $4
       ), cleared AS (
         UPDATE emails e SET content_id = NULL, variables = NULL FROM batch
          WHERE e.id = batch.id AND e.project_id = $1
         RETURNING batch.content_id, e.created_at
       )
       SELECT count(*)::int AS cleared, coalesce(array_agg(DISTINCT content_id) FILTER (WHERE content_id IS NOT NULL), '{}') AS content_ids, max(created_at) AS last_at FROM cleared`,
      [projectId, range.before, range.from, limit, IN_FLIGHT],
    )) as Array<{ cleared: number; content_ids: string[]; last_at: Date | null }>;
    return { cleared: row.cleared, contentIds: row.content_ids, lastAt: row.last_at === null ? null : new Date(row.last_at) };
  }

  /**
   * Drops the content months older than every month `emails` still holds: a send request's content
   * row is written in the statement that writes its emails, so it is of their month, and once that
   * month of emails is gone no email references it. An audience's row (a campaign's, an A/B
   * variant's: held by the campaign, given to emails of later months) moves to the current month
   * first. Leftovers a busy lock left detached go too. Answers the months dropped.
   */
  async dropContentMonths(): Promise<string[]> {
    for (const leftover of await this.partitions.detached('email_contents')) await this.partitions.drop('email_contents', leftover);
    const [oldestKept] = await this.partitions.months('emails');
    const dropped: string[] = [];
    if (!oldestKept) return dropped;
    for (const month of await this.partitions.months('email_contents')) {
      if (month.to.getTime() > oldestKept.from.getTime()) break;
      await this.dataSource.query(`UPDATE email_contents SET created_at = now() WHERE audience AND created_at >= $1 AND created_at < $2`, [month.from, month.to]);
      if (!(await this.partitions.drop('email_contents', month.name))) break;
      dropped.push(month.name);
    }
    return dropped;
  }

  /**
   * Deletes those of these content rows of the project that no email references any more and no
   * audience holds (`emails_content_idx` answers each probe). A content row is only ever given to
   * new emails by its audience, so one no email and no audience holds stays unreferenced.
   */
  deleteUnreferencedContents(projectId: string, contentIds: string[]): Promise<number> {
    return deleteUnreferencedContents(this.dataSource.manager, projectId, contentIds);
  }
}

/**
 * Deletes those of the project's content rows `ids` that no email references any more and no
 * audience (a campaign, an A/B variant) holds, after the emails that used them were erased,
 * pruned or cleared, in the caller's transaction; answers how many went. A content row is only
 * ever given to new emails by its audience, so one no email and no audience holds stays
 * unreferenced. A statement of its own, not a CTE of the emails' change: a statement does not see
 * what its own CTE changed, so the emails just changed would still reference them. The one
 * statement for erasure (`EmailStatusStore.eraseRecipient`) and retention.
 */
export async function deleteUnreferencedContents(em: EntityManager, projectId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result: unknown = await em.query(
    `DELETE FROM email_contents c
      WHERE c.id = ANY($2::uuid[]) AND c.project_id = $1 AND NOT c.audience
        AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.content_id = c.id)`,
    [projectId, [...new Set(ids)]],
  );
  return affectedCount(result);
}
