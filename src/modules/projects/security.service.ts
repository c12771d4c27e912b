import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { logger } from '../../platform/logging/logger';
import { projectNotFound } from './projects.errors';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { Counts, ReputationCounts } from './reputation-counts';

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
    private readonly repository: ProjectsRepository,
    private readonly projects: ProjectsService,
    private readonly reputation: ReputationCounts,
  ) {}

  /** For a member of the project; anyone else gets 404 (a malformed id too, at the path's pipe). */
  async stateForMember(userId: string, projectId: string): Promise<SecurityState> {
    if (!(await this.projects.roleOf(projectId, userId))) throw projectNotFound();
    const project = await this.projects.findById(projectId);
    await this.noteLifted(projectId, project.disabled);
    const since = new Date(Date.now() - REPUTATION_THRESHOLDS.windowDays * 86_400_000);
    const counts = await this.reputation.count(projectId, since);
    const suspensions = await this.repository.recentSuspensions(projectId);
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
        emails: s.emailCount,
        bounces: s.bounceCount,
        complaints: s.complaintCount,
        bounceRate: s.bounceRate,
        complaintRate: s.complaintRate,
        createdAt: s.createdAt.toISOString(),
        liftedAt: s.liftedAt ? s.liftedAt.toISOString() : null,
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
    const project = await this.repository.reputationState(projectId, manager);
    if (!project) return false;
    await this.noteLifted(projectId, project.disabled, manager);
    if (project.disabled) return false;
    const windowStart = new Date(Date.now() - REPUTATION_THRESHOLDS.windowDays * 86_400_000);
    const since = project.lastSuspension && project.lastSuspension > windowStart ? project.lastSuspension : windowStart;
    const counts = await this.reputation.count(projectId, since, manager);
    const { bounceRate, complaintRate, exceeded } = reputationVerdict(counts);
    if (!exceeded) return false;
    const suspended = await this.repository.suspend(
      projectId,
      { reason: EMAIL_REPUTATION, emailCount: counts.emails, bounceCount: counts.bounces, complaintCount: counts.complaints, bounceRate, complaintRate },
      manager,
    );
    if (suspended) log.warn({ projectId, ...counts, bounceRate, complaintRate }, 'project disabled for email reputation');
    return suspended;
  }

  /** A suspension is lifted once an ADMIN re-enabled the project; noted lazily on the next read. */
  private async noteLifted(projectId: string, disabled: boolean, manager?: EntityManager): Promise<void> {
    if (disabled) return;
    await this.repository.liftSuspensions(projectId, manager);
  }
}
