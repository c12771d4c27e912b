import { Injectable } from '@nestjs/common';

/** Whether a project did one onboarding step (e.g. `hasContacts`), answered by the module owning the data. */
export type SetupProbe = (projectId: string) => Promise<boolean>;

/**
 * The onboarding steps of `GET /projects/:id/setup-state`: each module registers the probes of
 * its own tables; a step no module registered (its module is not installed) reads as not done.
 */
@Injectable()
export class SetupProbes {
  private readonly probes = new Map<string, SetupProbe>();

  register(name: string, probe: SetupProbe): void {
    if (this.probes.has(name)) throw new Error(`setup probe "${name}" is registered twice`);
    this.probes.set(name, probe);
  }

  /** Every registered probe's answer, by name. */
  async evaluate(projectId: string): Promise<Record<string, boolean>> {
    const entries = await Promise.all([...this.probes].map(async ([name, probe]) => [name, await probe(projectId)] as const));
    return Object.fromEntries(entries);
  }
}
