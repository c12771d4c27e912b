import { Injectable } from '@nestjs/common';
import { UsersService } from '../auth';
import type { AssignableRole } from './dto/add-member.dto';
import { MemberRow } from './dto/member.response';
import { alreadyMember, cannotChangeSelf, memberNotFound, ownerIsFixed, userNotFound } from './projects.errors';
import { MemberRecord, ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

const toRow = (r: MemberRecord, email: string): MemberRow => ({ userId: r.userId, email, role: r.role, createdAt: r.createdAt });

/** Membership rules: ADMIN and OWNER manage members; the OWNER is fixed; nobody removes or re-roles themself. */
@Injectable()
export class MembersService {
  constructor(
    private readonly repository: ProjectsRepository,
    private readonly projects: ProjectsService,
    private readonly users: UsersService,
  ) {}

  async list(actorId: string, projectId: string): Promise<MemberRow[]> {
    await this.projects.requireRole(projectId, actorId, 'MEMBER');
    const rows = await this.repository.members(projectId);
    const emails = await this.users.emailsOf(rows.map((r) => r.userId));
    return rows
      .filter((r) => emails.has(r.userId))
      .map((r) => toRow(r, emails.get(r.userId) as string))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  async add(actorId: string, projectId: string, email: string, role: AssignableRole): Promise<MemberRow> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    const user = await this.users.findByEmail(email);
    if (!user) throw userNotFound();
    const inserted = await this.repository.addMember(projectId, user.id, role);
    if (!inserted) throw alreadyMember();
    return toRow(inserted, user.email);
  }

  async changeRole(actorId: string, projectId: string, userId: string, role: AssignableRole): Promise<MemberRow> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    if (userId === actorId) throw cannotChangeSelf();
    const target = await this.projects.roleOf(projectId, userId);
    if (!target) throw memberNotFound();
    if (target === 'OWNER') throw ownerIsFixed();
    const changed = await this.repository.changeMemberRole(projectId, userId, role);
    const email = changed ? (await this.users.emailsOf([userId])).get(userId) : undefined;
    if (!changed || email === undefined) throw memberNotFound();
    return toRow(changed, email);
  }

  async remove(actorId: string, projectId: string, userId: string): Promise<void> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    if (userId === actorId) throw cannotChangeSelf();
    const target = await this.projects.roleOf(projectId, userId);
    if (!target) throw memberNotFound();
    if (target === 'OWNER') throw ownerIsFixed();
    await this.repository.removeMember(projectId, userId);
  }
}
