import { Injectable } from '@nestjs/common';
import type { Project } from '../../projects/entities/project.entity';
import { ProjectsService } from '../../projects/projects.service';

const TTL_MS = 5_000;

/** The pipeline reads a project per email; a few seconds of staleness is fine for language and state. */
@Injectable()
export class ProjectCache {
  private readonly entries = new Map<string, { project: Project; expires: number }>();

  constructor(private readonly projects: ProjectsService) {}

  async get(projectId: string): Promise<Project> {
    const hit = this.entries.get(projectId);
    if (hit && hit.expires > Date.now()) return hit.project;
    const project = await this.projects.findById(projectId);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(projectId, { project, expires: Date.now() + TTL_MS });
    return project;
  }
}
