import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
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

type Step = Exclude<keyof SetupState, 'completed'>;

const STEPS: Step[] = [
  'hasDomain',
  'hasVerifiedDomain',
  'hasContacts',
  'hasTemplates',
  'hasSentEmail',
  'hasEvents',
  'hasCampaigns',
  'hasWorkflows',
  'hasSegments',
  'hasTeamMembers',
];

/**
 * Onboarding steps: each is a probe registered by the module that owns its data (SetupProbes);
 * a step whose module registered nothing reads as not done.
 */
@Injectable()
export class SetupStateService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly probes: SetupProbes,
  ) {
    probes.register('hasTeamMembers', async (projectId) => {
      const [row]: Array<{ many: boolean }> = await this.db.query(`SELECT count(*) > 1 AS many FROM project_members WHERE project_id = $1`, [projectId]);
      return row.many === true;
    });
  }

  async get(actorId: string, projectId: string, domainVerificationOff: boolean): Promise<SetupState> {
    await this.projects.requireRole(projectId, actorId, 'MEMBER');
    const answers = await this.probes.evaluate(projectId);
    const state = Object.fromEntries(STEPS.map((step) => [step, answers[step] === true])) as Record<Step, boolean>;
    const domainReady = state.hasVerifiedDomain || domainVerificationOff;
    return { ...state, completed: domainReady && state.hasSentEmail };
  }
}
