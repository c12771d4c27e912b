import { Injectable } from '@nestjs/common';

/** Something other records may reference. */
export type UsageSubject =
  | { kind: 'template'; id: string }
  | { kind: 'event'; name: string }
  | { kind: 'field'; field: string }
  | { kind: 'domain'; domain: string }
  | { kind: 'segment'; id: string }
  | { kind: 'topic'; id: string };

export interface UsageRef {
  id: string;
  name: string;
  stepId?: string;
  /** The referencing record's own status, when it has one (a campaign's). */
  status?: string;
}

export interface UsageRefs {
  segments: UsageRef[];
  campaigns: UsageRef[];
  workflows: UsageRef[];
  /** Templates are referencing records only for a domain (their sender); optional for the other subjects' providers. */
  templates?: UsageRef[];
}

const KINDS = ['segments', 'campaigns', 'workflows', 'templates'] as const;

/** A module's answer for the records it owns; subjects it has nothing to say about get `{}`. */
export type UsageProvider = (projectId: string, subject: UsageSubject) => Promise<Partial<UsageRefs>>;

/**
 * Who references a template, an event name, a field, a domain, a segment or a topic. The modules that own
 * referencing records (segments, campaigns, workflows) register a provider, as readiness checks
 * are registered; the owners of the subjects ask here instead of reading others' tables.
 */
@Injectable()
export class UsageRegistry {
  private readonly providers: UsageProvider[] = [];

  register(provider: UsageProvider): void {
    this.providers.push(provider);
  }

  async find(projectId: string, subject: UsageSubject): Promise<UsageRefs> {
    const answers = await Promise.all(this.providers.map((provider) => provider(projectId, subject)));
    const refs: Required<UsageRefs> = { segments: [], campaigns: [], workflows: [], templates: [] };
    for (const answer of answers) {
      for (const key of KINDS) if (answer[key]) refs[key].push(...answer[key]);
    }
    for (const key of KINDS) refs[key].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id) || (a.stepId ?? '').localeCompare(b.stepId ?? ''));
    return refs;
  }
}
