import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ProjectRole } from '../auth/principal';
import { UsersService } from '../auth/users.service';
import type { AssignableRole } from './dto/add-member.dto';
import { MemberRow } from './dto/member.response';
import { alreadyMember, cannotChangeSelf, memberNotFound, ownerIsFixed, userNotFound } from './projects.errors';
import { ProjectsService } from './projects.service';

interface RawMember {
  user_id: string;
  email: string;
  role: ProjectRole;
  created_at: Date;
}

const toRow = (r: RawMember): MemberRow => ({ userId: r.user_id, email: r.email, role: r.role, createdAt: new Date(r.created_at) });

/** Membership rules: ADMIN and OWNER manage members; the OWNER is fixed; nobody removes or re-roles themself. */
@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly users: UsersService,
  ) {}

  async list(actorId: string, projectId: string): Promise<MemberRow[]> {
    await this.projects.requireRole(projectId, actorId, 'MEMBER');
    const rows: Array<Omit<RawMember, 'email'>> = await this.db.query(
      `SELECT user_id, role, created_at FROM project_members WHERE project_id = $1`,
      [projectId],
    );
    const emails = await this.users.emailsOf(rows.map((r) => r.user_id));
    return rows
      .filter((r) => emails.has(r.user_id))
      .map((r) => toRow({ ...r, email: emails.get(r.user_id) as string }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  async add(actorId: string, projectId: string, email: string, role: AssignableRole): Promise<MemberRow> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    const user = await this.users.findByEmail(email);
    if (!user) throw userNotFound();
    const inserted: RawMember[] = await this.db.query(
      `INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, user_id) DO NOTHING
       RETURNING user_id, $4::text AS email, role, created_at`,
      [projectId, user.id, role, user.email],
    );
    if (inserted.length === 0) throw alreadyMember();
    return toRow(inserted[0]);
  }

  async changeRole(actorId: string, projectId: string, userId: string, role: AssignableRole): Promise<MemberRow> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    if (userId === actorId) throw cannotChangeSelf();
    const target = await this.projects.roleOf(projectId, userId);
    if (!target) throw memberNotFound();
    if (target === 'OWNER') throw ownerIsFixed();
    // The role condition keeps a concurrent ownership change from being overwritten.
    const [rows]: [Array<Omit<RawMember, 'email'>>, number] = await this.db.query(
      `UPDATE project_members SET role = $3 WHERE project_id = $1 AND user_id = $2 AND role <> 'OWNER'
        RETURNING user_id, role, created_at`,
      [projectId, userId, role],
    );
    const email = rows.length > 0 ? (await this.users.emailsOf([userId])).get(userId) : undefined;
    if (email === undefined) throw memberNotFound();
    return toRow({ ...rows[0], email });
  }

  async remove(actorId: string, projectId: string, userId: string): Promise<void> {
    await this.projects.requireRole(projectId, actorId, 'ADMIN');
    if (userId === actorId) throw cannotChangeSelf();
    const target = await this.projects.roleOf(projectId, userId);
    if (!target) throw memberNotFound();
    if (target === 'OWNER') throw ownerIsFixed();
    await this.db.query(`DELETE FROM project_members WHERE project_id = $1 AND user_id = $2 AND role <> 'OWNER'`, [projectId, userId]);
  }
}
