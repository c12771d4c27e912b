import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { logger } from '../../platform/logging/logger';
import { ProjectsService } from './projects.service';

export interface SetupState {
  hasDomain: boolean;
  hasVerifiedDomain: boolean;
  hasContacts: boolean;
  hasTemplates: boolean;
  hasSentEmail: boolean;
  hasEvents: boolean;
  hasCampaigns: boolean;
  hasWorkflows: boolean;
  hasSegments: boolean;
  hasTeamMembers: boolean;
  /** The essentials: a verified domain (or verification off) and a first email sent. */
  completed: boolean;
}

type Check = Exclude<keyof SetupState, 'completed' | 'hasTeamMembers'>;

/** Each onboarding step is an EXISTS over a table another module owns; a table not created yet counts as "not done". */
const CHECKS: Array<{ key: Check; table: string; where?: string }> = [
  { key: 'hasDomain', table: 'domains' },
  { key: 'hasVerifiedDomain', table: 'domains', where: `status = 'verified'` },
  { key: 'hasContacts', table: 'contacts' },
  { key: 'hasTemplates', table: 'templates' },
  { key: 'hasSentEmail', table: 'emails' },
  { key: 'hasEvents', table: 'events' },
  { key: 'hasCampaigns', table: 'campaigns' },
  { key: 'hasWorkflows', table: 'workflows' },
  { key: 'hasSegments', table: 'segments' },
];

@Injectable()
export class SetupStateService {
  private readonly log = logger('setup-state');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  async get(actorId: string, projectId: string, domainVerificationOff: boolean): Promise<SetupState> {
    await this.projects.requireRole(projectId, actorId, 'MEMBER');
    const tables = [...new Set(CHECKS.map((c) => c.table))];
    const [present]: Array<Record<string, string | null>> = await this.db.query(
      `SELECT ${tables.map((t, i) => `to_regclass($${i + 1}) AS "${t}"`).join(', ')}`,
      tables.map((t) => `public.${t}`),
    );
    const live = CHECKS.filter((c) => present[c.table] !== null);
    const state = Object.fromEntries(CHECKS.map((c) => [c.key, false])) as Record<Check, boolean>;
    const selects = [
      ...live.map((c) => `EXISTS (SELECT 1 FROM ${c.table} WHERE project_id = $1${c.where ? ` AND ${c.where}` : ''}) AS "${c.key}"`),
      `(SELECT count(*) > 1 FROM project_members WHERE project_id = $1) AS "hasTeamMembers"`,
    ];
    let hasTeamMembers = false;
    try {
      const [row]: Array<Record<string, boolean>> = await this.db.query(`SELECT ${selects.join(', ')}`, [projectId]);
      for (const c of live) state[c.key] = row[c.key] === true;
      hasTeamMembers = row.hasTeamMembers === true;
    } catch (err) {
      // A module's table may not have the expected shape yet; onboarding hints must never break the dashboard.
      this.log.warn({ err, projectId }, 'setup-state query failed');
    }
    const domainReady = state.hasVerifiedDomain || domainVerificationOff;
    return { ...state, hasTeamMembers, completed: domainReady && state.hasSentEmail };
  }
}
