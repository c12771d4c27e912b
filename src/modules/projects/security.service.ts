import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { logger } from '../../platform/logging/logger';
import { projectNotFound } from './projects.errors';
import { ProjectsService } from './projects.service';
import { Counts, ReputationCounts } from './reputation-counts';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

const log = logger('reputation');

/** The reputation rule: docs/decisions.md#billing-security-uploads. */
export const REPUTATION_THRESHOLDS = { windowDays: 30, minimumEmails: 100, bounceRate: 0.1, complaintRate: 0.005 } as const;
/** Persisted in `projects.disabled_reason` and `project_suspensions.reason`. */
export const EMAIL_REPUTATION = 'EMAIL_REPUTATION';

export interface SecurityState {
  projectId: string;
  disabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  window: { days: number; since: string };
  emails: number;
  bounces: number;
  complaints: number;
  bounceRate: number;
  complaintRate: number;
  thresholds: { minimumEmails: number; bounceRate: number; complaintRate: number };
  suspensions: Array<{
    id: string;
    reason: string;
    emails: number;
    bounces: number;
    complaints: number;
    bounceRate: number;
    complaintRate: number;
    createdAt: string;
    liftedAt: string | null;
  }>;
}

interface SuspensionRow {
  id: string;
  reason: string;
  email_count: number;
  bounce_count: number;
  complaint_count: number;
  bounce_rate: number;
  complaint_rate: number;
  created_at: Date;
  lifted_at: Date | null;
}

const rate = (part: number, total: number): number => (total === 0 ? 0 : Math.round((part / total) * 1e6) / 1e6);

/** Rates of a window, and whether they cross the thresholds (never below the minimum volume). */
export function reputationVerdict(counts: Counts): { bounceRate: number; complaintRate: number; exceeded: boolean } {
  const bounceRate = rate(counts.bounces, counts.emails);
  const complaintRate = rate(counts.complaints, counts.emails);
  const exceeded =
    counts.emails >= REPUTATION_THRESHOLDS.minimumEmails &&
    (bounceRate > REPUTATION_THRESHOLDS.bounceRate || complaintRate > REPUTATION_THRESHOLDS.complaintRate);
  return { bounceRate, complaintRate, exceeded };
}

@Injectable()
export class SecurityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly reputation: ReputationCounts,
  ) {}

  /** For a member of the project; anyone else (or a malformed id) gets 404. */
  async stateForMember(userId: string, projectId: string): Promise<SecurityState> {
    if (!isUuid(projectId) || !(await this.projects.roleOf(projectId, userId))) throw projectNotFound();
    const project = await this.projects.findById(projectId);
    await this.noteLifted(projectId, project.disabled);
    const since = new Date(Date.now() - REPUTATION_THRESHOLDS.windowDays * 86_400_000);
    const counts = await this.reputation.count(projectId, since);
    const suspensions: SuspensionRow[] = await this.dataSource.query(
      `SELECT id, reason, email_count, bounce_count, complaint_count, bounce_rate, complaint_rate, created_at, lifted_at
         FROM project_suspensions WHERE project_id = $1 ORDER BY created_at DESC LIMIT 20`,
      [projectId],
    );
    return {
      projectId,
      disabled: project.disabled,
      disabledReason: project.disabledReason,
      disabledAt: project.disabledAt?.toISOString() ?? null,
      window: { days: REPUTATION_THRESHOLDS.windowDays, since: since.toISOString() },
      emails: counts.emails,
      bounces: counts.bounces,
      complaints: counts.complaints,
      bounceRate: rate(counts.bounces, counts.emails),
      complaintRate: rate(counts.complaints, counts.emails),
      thresholds: {
        minimumEmails: REPUTATION_THRESHOLDS.minimumEmails,
        bounceRate: REPUTATION_THRESHOLDS.bounceRate,
        complaintRate: REPUTATION_THRESHOLDS.complaintRate,
      },
      suspensions: suspensions.map((s) => ({
        id: s.id,
        reason: s.reason,
        emails: s.email_count,
        bounces: s.bounce_count,
        complaints: s.complaint_count,
        bounceRate: s.bounce_rate,
        complaintRate: s.complaint_rate,
        createdAt: new Date(s.created_at).toISOString(),
        liftedAt: s.lifted_at ? new Date(s.lifted_at).toISOString() : null,
      })),
    };
  }

  /**
   * Called after every bounce and complaint: disables the project when the window's rates cross
   * the thresholds. After a suspension is lifted, only mail created since that suspension counts,
   * so re-enabling gives a fresh start instead of an immediate second suspension.
   * Returns whether this call disabled the project. With `manager`, runs inside the caller's
   * transaction (the feedback that triggered it commits or rolls back with the verdict).
   */
  async evaluate(projectId: string, manager?: EntityManager): Promise<boolean> {
    const db = manager ?? this.dataSource.manager;
    const rows: Array<{ disabled: boolean; last_suspension: Date | null }> = await db.query(
      `SELECT p.disabled, (SELECT max(created_at) FROM project_suspensions s WHERE s.project_id = p.id) AS last_suspension
         FROM projects p WHERE p.id = $1`,
      [projectId],
    );
    const project = rows[0];
    if (!project) return false;
    await this.noteLifted(projectId, project.disabled, db);
    if (project.disabled) return false;
    const windowStart = new Date(Date.now() - REPUTATION_THRESHOLDS.windowDays * 86_400_000);
    const since = project.last_suspension && new Date(project.last_suspension) > windowStart ? new Date(project.last_suspension) : windowStart;
    const counts = await this.reputation.count(projectId, since, manager);
    const { bounceRate, complaintRate, exceeded } = reputationVerdict(counts);
    if (!exceeded) return false;
    const suspend = async (em: EntityManager): Promise<boolean> => {
      const [updated] = (await em.query(
        `UPDATE projects SET disabled = true, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE id = $1 AND disabled = false RETURNING id`,
        [projectId, EMAIL_REPUTATION],
      )) as [unknown[], number];
      if (updated.length === 0) return false;
      await em.query(
        `INSERT INTO project_suspensions (project_id, reason, email_count, bounce_count, complaint_count, bounce_rate, complaint_rate)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [projectId, EMAIL_REPUTATION, counts.emails, counts.bounces, counts.complaints, bounceRate, complaintRate],
      );
      log.warn({ projectId, ...counts, bounceRate, complaintRate }, 'project disabled for email reputation');
      return true;
    };
    return manager ? suspend(manager) : this.dataSource.transaction(suspend);
  }

  /** A suspension is lifted once an ADMIN re-enabled the project; noted lazily on the next read. */
  private async noteLifted(projectId: string, disabled: boolean, db: EntityManager = this.dataSource.manager): Promise<void> {
    if (disabled) return;
    await db.query(`UPDATE project_suspensions SET lifted_at = now() WHERE project_id = $1 AND lifted_at IS NULL`, [projectId]);
  }
}
