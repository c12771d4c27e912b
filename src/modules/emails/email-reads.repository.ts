import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { Counts, ReputationCounts } from '../projects';
import { EMAIL_EVENT_COLUMNS, EmailEventRow } from './email-event-data';
import type { EmailType } from './entities/email.entity';

const REPUTATION_COUNTS_SQL = `
  SELECT count(*)::int AS emails,
         count(*) FILTER (WHERE bounced_at IS NOT NULL AND bounce_type = 'Permanent')::int AS bounces,
         count(*) FILTER (WHERE complained_at IS NOT NULL)::int AS complaints
    FROM emails
   WHERE project_id = $1 AND created_at > $2
     AND (sent_at IS NOT NULL OR delivered_at IS NOT NULL OR bounced_at IS NOT NULL)`;

/**
 * The read models over `emails` beside its state machine (`EmailStatusStore` writes every
 * transition): a project's sending reputation and whether it ever sent, the emails a provider's
 * notification or a signed link names (by id alone, across projects), and the sweep's stranded
 * emails.
 */
@Injectable()
export class EmailReadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, setup: SetupProbes, reputation: ReputationCounts) {
    setup.register('hasSentEmail', async (projectId) => {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM emails WHERE project_id = $1 LIMIT 1`, [projectId]);
      return rows.length > 0;
    });
    reputation.register((projectId, since, manager) => this.reputationCounts(projectId, since, manager));
  }

  /**
   * The project's sending reputation since `since` (SecurityService's window): an email counts
   * once it was handed to the transport (sent, delivered or bounced); a bounce is a permanent
   * one; a complaint is any complaint. With `manager`, read inside the caller's transaction.
   */
  async reputationCounts(projectId: string, since: Date, manager?: EntityManager): Promise<Counts> {
    const rows: Counts[] = await (manager ?? this.dataSource.manager).query(REPUTATION_COUNTS_SQL, [projectId, since]);
    return rows[0] ?? { emails: 0, bounces: 0, complaints: 0 };
  }

  /**
   * Project emails whose provider message id is one of these (one row per recipient). Across
   * projects: a provider's notification names no project.
   */
  findByProviderMessageIdsAnyProject(providerIds: string[]): Promise<EmailEventRow[]> {
    return this.dataSource.query(`SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE provider_message_id = ANY($1) AND project_id IS NOT NULL`, [providerIds]);
  }

  /** Project emails whose Message-ID header is one of these (as stored, with angle brackets); across projects, as above. */
  findByMessageIdsAnyProject(messageIds: string[]): Promise<EmailEventRow[]> {
    return this.dataSource.query(`SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE message_id = ANY($1) AND project_id IS NOT NULL`, [messageIds]);
  }

  /** A project email by id alone (a notification or a signed link carries only the id). */
  async findByIdAnyProject(emailId: string): Promise<EmailEventRow | null> {
    const rows: EmailEventRow[] = await this.dataSource.query(`SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE id = $1 AND project_id IS NOT NULL`, [emailId]);
    return rows[0] ?? null;
  }

  /**
   * Unfinished emails whose job may have been lost (enqueue failed, queue data lost, crash): `queued`
   * untouched for `strandedAfterMs`, or `sending` past their lease; and emails a warm-up cap held
   * whose day has come (they were never enqueued). A re-enqueued email whose first job was not lost
   * after all is claimed once: the claim's status guard lets one job win.
   */
  async findStranded(limit: number, strandedAfterMs: number): Promise<Array<{ id: string; type: EmailType }>> {
    return this.dataSource.query(
      `SELECT id, type FROM emails
        WHERE (status = 'queued' AND not_before IS NULL AND updated_at < now() - $2 * interval '1 millisecond')
           OR (status = 'queued' AND not_before <= now())
           OR (status = 'sending' AND lease_until < now())
        ORDER BY created_at LIMIT $1`,
      [limit, strandedAfterMs],
    );
  }
}
