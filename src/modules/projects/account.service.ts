import { Injectable } from '@nestjs/common';
import { AuthService, UsersService } from '../auth';
import { ownsSharedProjects } from './projects.errors';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

/** Account deletion: it reaches the projects the user owns, so it stands here, above auth. */
@Injectable()
export class AccountService {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly repository: ProjectsRepository,
  ) {}

  /**
   * Deletes the signed-in user once the password is confirmed (403 when wrong). Refused (409,
   * naming them) while the user owns a project with other members; otherwise every project they
   * own is deleted as `DELETE /users/@me/projects/:id` deletes one, then the user: their sessions
   * end, their memberships of other projects go with them. Each project is its own transaction, so
   * a crash half-way leaves an account that can be deleted again. A member added to one of them
   * after the check is seen under the project's lock: that project stays and the answer is the 409.
   */
  async deleteAccount(userId: string, password: string, ip?: string): Promise<void> {
    await this.auth.confirmPassword(userId, password, ip);
    const owned = (await this.projects.listForUser(userId)).filter((m) => m.role === 'OWNER').map((m) => m.project);
    const shared: typeof owned = [];
    for (const project of owned) if (await this.repository.hasTeamMembers(project.id)) shared.push(project);
    if (shared.length > 0) throw ownsSharedProjects(shared);
    for (const project of owned) {
      if (!(await this.projects.delete(project.id, { unlessShared: true }))) throw ownsSharedProjects([project]);
    }
    await this.users.delete(userId);
  }
}
