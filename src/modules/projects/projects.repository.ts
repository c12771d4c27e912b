import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ADVISORY_LOCKS } from '../../platform/database/advisory-locks';
import { affectedCount } from '../../platform/database/query-results';
import type { ProjectRole } from '../auth';
import { ProjectMember } from './entities/project-member.entity';
import { Project } from './entities/project.entity';
import { deletionOrder, ForeignKey, KEPT_TABLES } from './project-wipe';

export interface MemberRecord {
  userId: string;
  role: ProjectRole;
  createdAt: Date;
}

export interface SuspensionRecord {
  id: string;
  reason: string;
  emailCount: number;
  bounceCount: number;
  complaintCount: number;
  bounceRate: number;
  complaintRate: number;
  createdAt: Date;
  liftedAt: Date | null;
}

export type NewSuspension = Pick<SuspensionRecord, 'reason' | 'emailCount' | 'bounceCount' | 'complaintCount' | 'bounceRate' | 'complaintRate'>;

type ProjectColumns = Omit<Project, 'id' | 'createdAt' | 'updatedAt'>;

interface RawMember {
  user_id: string;
  role: ProjectRole;
  created_at: Date;
}

const toMember = (r: RawMember): MemberRecord => ({ userId: r.user_id, role: r.role, createdAt: new Date(r.created_at) });

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The projects module's tables: projects, project_members, project_suspensions. */
@Injectable()
export class ProjectsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new project with `ownerId` as its OWNER, in the caller's transaction. */
  async insertWithOwner(columns: ProjectColumns, ownerId: string, manager: EntityManager): Promise<Project> {
    const created = await manager.save(manager.create(Project, columns));
    await manager.insert(ProjectMember, { projectId: created.id, userId: ownerId, role: 'OWNER' });
    return created;
  }

  async findById(projectId: string, manager: EntityManager = this.dataSource.manager): Promise<Project | null> {
    return manager.getRepository(Project).findOneBy({ id: projectId });
  }

  /** Changes columns of the project; false when it does not exist. */
  async update(projectId: string, changes: Partial<Project>): Promise<boolean> {
    const result = await this.dataSource.getRepository(Project).update({ id: projectId }, changes);
    return !!result.affected;
  }

  /** One keyset page of every project's retention setting, by id (the retention pruner's walk). */
  async retentionsAcrossProjects(afterId: string | null, limit: number): Promise<Array<Pick<Project, 'id' | 'retention'>>> {
    const qb = this.dataSource.getRepository(Project).createQueryBuilder('p').select(['p.id', 'p.retention']).orderBy('p.id').limit(limit);
    if (afterId) qb.where('p.id > :afterId', { afterId });
    return qb.getMany();
  }

  /** These projects' retention settings (a deleted project is absent). */
  async retentionsOf(ids: string[]): Promise<Array<Pick<Project, 'id' | 'retention'>>> {
    if (ids.length === 0) return [];
    return this.dataSource.getRepository(Project).createQueryBuilder('p').select(['p.id', 'p.retention']).where('p.id IN (:...ids)', { ids }).getMany();
  }

  /** The project whose secret or public key has this SHA-256 digest (a key names its project: any project). */
  async findByKeyDigestAnyProject(digest: string): Promise<Pick<Project, 'id' | 'secretKeyHash'> | null> {
    return this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .select(['p.id', 'p.secretKeyHash'])
      .where('p.secret_key_hash = :digest OR p.public_key_hash = :digest', { digest })
      .getOne();
  }

  /** The projects a user belongs to, with the role, oldest membership first (a user's view across projects). */
  async membershipsOfUserAcrossProjects(userId: string): Promise<Array<{ project: Project; role: ProjectRole }>> {
    const rows = await this.dataSource.getRepository(ProjectMember).find({ where: { userId }, order: { createdAt: 'ASC' } });
    if (rows.length === 0) return [];
    const projects = await this.dataSource.getRepository(Project).createQueryBuilder('p').where('p.id IN (:...ids)', { ids: rows.map((r) => r.projectId) }).getMany();
    const byId = new Map(projects.map((p) => [p.id, p]));
    return rows.filter((r) => byId.has(r.projectId)).map((r) => ({ project: byId.get(r.projectId)!, role: r.role }));
  }

  async roleOf(projectId: string, userId: string): Promise<ProjectRole | null> {
    const member = await this.dataSource.getRepository(ProjectMember).findOneBy({ projectId, userId });
    return member?.role ?? null;
  }

  async members(projectId: string): Promise<MemberRecord[]> {
    const rows: RawMember[] = await this.dataSource.query(`SELECT user_id, role, created_at FROM project_members WHERE project_id = $1`, [projectId]);
    return rows.map(toMember);
  }

  /** Whether the project has more than one member. */
  async hasTeamMembers(projectId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [row]: Array<{ many: boolean }> = await manager.query(`SELECT count(*) > 1 AS many FROM project_members WHERE project_id = $1`, [projectId]);
    return row.many === true;
  }

  /**
   * Locks the project's row for the caller's transaction: a member added meanwhile (its insert
   * holds a key-share lock on this row) either committed before, and is seen, or waits for the
   * transaction and then finds no project.
   */
  async lockProject(projectId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT id FROM projects WHERE id = $1 FOR UPDATE`, [projectId]);
  }

  /** The new member, or null when the user already is one. */
  async addMember(projectId: string, userId: string, role: ProjectRole): Promise<MemberRecord | null> {
    const inserted: RawMember[] = await this.dataSource.query(
      `INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, user_id) DO NOTHING
       RETURNING user_id, role, created_at`,
      [projectId, userId, role],
    );
    return inserted.length > 0 ? toMember(inserted[0]) : null;
  }

  /** Re-roles a member other than the OWNER (the role condition keeps a concurrent ownership change from being overwritten); null when none matched. */
  async changeMemberRole(projectId: string, userId: string, role: ProjectRole): Promise<MemberRecord | null> {
    const [rows]: [RawMember[], number] = await this.dataSource.query(
      `UPDATE project_members SET role = $3 WHERE project_id = $1 AND user_id = $2 AND role <> 'OWNER'
        RETURNING user_id, role, created_at`,
      [projectId, userId, role],
    );
    return rows.length > 0 ? toMember(rows[0]) : null;
  }

  /** Removes a member other than the OWNER. */
  async removeMember(projectId: string, userId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM project_members WHERE project_id = $1 AND user_id = $2 AND role <> 'OWNER'`, [projectId, userId]);
  }

  /** Whether the project is disabled, and when its last suspension began (null: none); undefined when it does not exist. */
  async reputationState(projectId: string, manager: EntityManager = this.dataSource.manager): Promise<{ disabled: boolean; lastSuspension: Date | null } | undefined> {
    const [row]: Array<{ disabled: boolean; last_suspension: Date | null }> = await manager.query(
      `SELECT p.disabled, (SELECT max(created_at) FROM project_suspensions s WHERE s.project_id = p.id) AS last_suspension
         FROM projects p WHERE p.id = $1`,
      [projectId],
    );
    return row ? { disabled: row.disabled, lastSuspension: row.last_suspension ? new Date(row.last_suspension) : null } : undefined;
  }

  /**
   * Disables the project and records the suspension with the window's counts, in one transaction
   * (the caller's with `manager`); false when it was already disabled (nothing written).
   */
  async suspend(projectId: string, suspension: NewSuspension, manager?: EntityManager): Promise<boolean> {
    const run = async (em: EntityManager): Promise<boolean> => {
      const updated = await em.query(
        `UPDATE projects SET disabled = true, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE id = $1 AND disabled = false RETURNING id`,
        [projectId, suspension.reason],
      );
      if (affectedCount(updated) === 0) return false;
      await em.query(
        `INSERT INTO project_suspensions (project_id, reason, email_count, bounce_count, complaint_count, bounce_rate, complaint_rate)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [projectId, suspension.reason, suspension.emailCount, suspension.bounceCount, suspension.complaintCount, suspension.bounceRate, suspension.complaintRate],
      );
      return true;
    };
    return manager ? run(manager) : this.dataSource.transaction(run);
  }

  /** Marks the project's open suspensions lifted (it was re-enabled). */
  async liftSuspensions(projectId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(`UPDATE project_suspensions SET lifted_at = now() WHERE project_id = $1 AND lifted_at IS NULL`, [projectId]);
  }

  /** The project's 20 latest suspensions, newest first. */
  async recentSuspensions(projectId: string): Promise<SuspensionRecord[]> {
    const rows: Array<{
      id: string;
      reason: string;
      email_count: number;
      bounce_count: number;
      complaint_count: number;
      bounce_rate: number;
      complaint_rate: number;
      created_at: Date;
      lifted_at: Date | null;
    }> = await this.dataSource.query(
      `SELECT id, reason, email_count, bounce_count, complaint_count, bounce_rate, complaint_rate, created_at, lifted_at
         FROM project_suspensions WHERE project_id = $1 ORDER BY created_at DESC LIMIT 20`,
      [projectId],
    );
    return rows.map((s) => ({
      id: s.id,
      reason: s.reason,
      emailCount: s.email_count,
      bounceCount: s.bounce_count,
      complaintCount: s.complaint_count,
      bounceRate: s.bounce_rate,
      complaintRate: s.complaint_rate,
      createdAt: new Date(s.created_at),
      liftedAt: s.lifted_at ? new Date(s.lifted_at) : null,
    }));
  }

  async deleteProject(projectId: string, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM projects WHERE id = $1`, [projectId]);
  }

  /**
   * Deletes every row of the project from every `public` table that has a `project_id` column,
   * except KEPT_TABLES, in the caller's transaction. It crosses every owner's tables on purpose:
   * a reset or deletion must reach the tables of modules added later too, so they are discovered
   * from the catalog at runtime rather than listed (or asked of each owner). One DELETE per table,
   * referencing tables first. Returns the tables touched.
   */
  async wipeRowsAcrossOwners(projectId: string, manager: EntityManager): Promise<string[]> {
    const rows: Array<{ table_name: string }> = await manager.query(
      `SELECT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND c.column_name = 'project_id' AND t.table_type = 'BASE TABLE'
          AND NOT (c.table_name = ANY($1))`,
      [KEPT_TABLES],
    );
    const tables = rows.map((r) => r.table_name);
    if (tables.length === 0) return [];
    const foreignKeys: ForeignKey[] = await manager.query(
      `SELECT child.relname AS child, parent.relname AS parent
         FROM pg_constraint k
         JOIN pg_class child ON child.oid = k.conrelid
         JOIN pg_class parent ON parent.oid = k.confrelid
        WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace`,
    );
    await manager.query(`SET CONSTRAINTS ALL DEFERRED`);
    for (const table of deletionOrder(tables, foreignKeys)) {
      await manager.query(`DELETE FROM ${quoteIdent(table)} WHERE project_id = $1`, [projectId]);
    }
    return tables.sort();
  }

  /** BOOTSTRAP_*: holds the bootstrap lock until the caller's transaction ends, so processes starting together create the first user and project once. */
  async lockBootstrap(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCKS.bootstrap]);
  }
}
