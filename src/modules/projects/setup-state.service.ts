import { Injectable } from '@nestjs/common';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { ProjectsRepository } from './projects.repository';
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
    repository: ProjectsRepository,
    private readonly projects: ProjectsService,
    private readonly probes: SetupProbes,
  ) {
    probes.register('hasTeamMembers', (projectId) => repository.hasTeamMembers(projectId));
  }

  async get(actorId: string, projectId: string, domainVerificationOff: boolean): Promise<SetupState> {
    await this.projects.requireRole(projectId, actorId, 'MEMBER');
    const answers = await this.probes.evaluate(projectId);
    const state = Object.fromEntries(STEPS.map((step) => [step, answers[step] === true])) as Record<Step, boolean>;
    const domainReady = state.hasVerifiedDomain || domainVerificationOff;
    return { ...state, completed: domainReady && state.hasSentEmail };
  }
}
