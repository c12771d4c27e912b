import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Project } from '../../projects';
import { ProjectsService } from '../../projects';

const TTL_MS = 5_000;

/** The pipeline reads a project per email; a few seconds of staleness is fine for language and state. */
@Injectable()
export class ProjectCache {
  private readonly entries = new LRUCache<string, Project>({ max: 10_000, ttl: TTL_MS });

  constructor(private readonly projects: ProjectsService) {}

  /** With `manager`, a miss is read in the caller's transaction. */
  async get(projectId: string, manager?: EntityManager): Promise<Project> {
    const hit = this.entries.get(projectId);
    if (hit) return hit;
    const project = await this.projects.findById(projectId, manager);
    this.entries.set(projectId, project);
    return project;
  }

  /**
   * The project's `defaultFrom`, read now rather than from the cache (one primary-key read, for
   * sends that name no sender): a sender set or changed a moment ago, in any process, applies to
   * the next send, and one whose domain was deleted is refused (DOMAIN_NOT_VERIFIED) at once.
   */
  async defaultFrom(projectId: string): Promise<{ email: string; name: string | null } | undefined> {
    const project = await this.projects.findById(projectId);
    this.entries.set(projectId, project);
    return project.defaultFromAddress ? { email: project.defaultFromAddress, name: project.defaultFromName } : undefined;
  }
}
