import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { randomHex, sha256Hex } from '../../platform/crypto';
import type { ProjectRole } from '../auth/principal';
import { generateKeyPair, KeyPair, keyColumns } from './api-keys';
import { ProjectMember } from './entities/project-member.entity';
import { Project } from './entities/project.entity';
import { projectNotFound } from './projects.errors';

export interface KeyLookup {
  projectId: string;
  kind: 'secret' | 'public';
}

const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX = 10_000;

@Injectable()
export class ProjectsService {
  /** Key digests resolve to projects for a few seconds without a query; rotation clears this process's entries. */
  private readonly keyCache = new Map<string, { value: KeyLookup | null; expires: number }>();

  constructor(
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(ProjectMember) private readonly members: Repository<ProjectMember>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Creates the project and makes `ownerId` its OWNER in one transaction. */
  async create(ownerId: string, name: string): Promise<{ project: Project; keys: KeyPair }> {
    const keys = generateKeyPair();
    const project = await this.dataSource.transaction(async (em) => {
      const created = await em.save(
        em.create(Project, {
          name: name.trim(),
          ...keyColumns(keys),
          disabled: false,
          disabledReason: null,
          disabledAt: null,
          tracking: 'ENABLED',
          language: 'en',
          webhookSecret: `whsec_${randomHex(24)}`,
        }),
      );
      await em.insert(ProjectMember, { projectId: created.id, userId: ownerId, role: 'OWNER' });
      return created;
    });
    return { project, keys };
  }

  async findById(projectId: string): Promise<Project> {
    const project = await this.projects.findOneBy({ id: projectId });
    if (!project) throw projectNotFound();
    return project;
  }

  async listForUser(userId: string): Promise<Array<{ project: Project; role: ProjectRole }>> {
    const rows = await this.members.find({ where: { userId }, order: { createdAt: 'ASC' } });
    if (rows.length === 0) return [];
    const projects = await this.projects.createQueryBuilder('p').where('p.id IN (:...ids)', { ids: rows.map((r) => r.projectId) }).getMany();
    const byId = new Map(projects.map((p) => [p.id, p]));
    return rows.filter((r) => byId.has(r.projectId)).map((r) => ({ project: byId.get(r.projectId)!, role: r.role }));
  }

  async roleOf(projectId: string, userId: string): Promise<ProjectRole | null> {
    const member = await this.members.findOneBy({ projectId, userId });
    return member?.role ?? null;
  }

  async resolveKey(rawKey: string): Promise<KeyLookup | null> {
    const digest = sha256Hex(rawKey);
    const cached = this.keyCache.get(digest);
    if (cached && cached.expires > Date.now()) return cached.value;
    const project = await this.projects
      .createQueryBuilder('p')
      .select(['p.id', 'p.secretKeyHash'])
      .where('p.secret_key_hash = :digest OR p.public_key_hash = :digest', { digest })
      .getOne();
    const value: KeyLookup | null = project ? { projectId: project.id, kind: project.secretKeyHash === digest ? 'secret' : 'public' } : null;
    if (this.keyCache.size >= KEY_CACHE_MAX) this.keyCache.clear();
    this.keyCache.set(digest, { value, expires: Date.now() + KEY_CACHE_TTL_MS });
    return value;
  }

  async rotateKeys(projectId: string): Promise<{ project: Project; keys: KeyPair }> {
    const keys = generateKeyPair();
    const result = await this.projects.update({ id: projectId }, keyColumns(keys));
    if (!result.affected) throw projectNotFound();
    this.keyCache.clear();
    return { project: await this.findById(projectId), keys };
  }
}
