import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A project's sending volume and feedback over a window (the reputation's inputs). */
export interface Counts {
  emails: number;
  bounces: number;
  complaints: number;
}

/** Counts of the project's emails created after `since`; with `manager`, read in the caller's transaction. */
export type ReputationCounter = (projectId: string, since: Date, manager?: EntityManager) => Promise<Counts>;

/**
 * Where the module owning emails plugs in the counts `SecurityService` judges, so this module
 * never reads that table (the emails module imports this one, not the other way round). Without
 * a registered counter (no emails module) a project has sent nothing.
 */
@Injectable()
export class ReputationCounts {
  private counter: ReputationCounter | null = null;

  register(counter: ReputationCounter): void {
    if (this.counter) throw new Error('a reputation counter is registered twice');
    this.counter = counter;
  }

  count(projectId: string, since: Date, manager?: EntityManager): Promise<Counts> {
    return this.counter ? this.counter(projectId, since, manager) : Promise.resolve({ emails: 0, bounces: 0, complaints: 0 });
  }
}
