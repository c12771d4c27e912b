import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { randomHex, sha256Hex } from '../../platform/crypto';
import type { ProjectRole } from '../auth';
import { generateKeyPair, KeyPair, keyColumns } from './api-keys';
import { Project } from './entities/project.entity';
import type { DefaultFromDto, DoubleOptInDto, UpdateProjectDto } from './dto/update-project.dto';
import { confirmationTemplateNotFound, confirmationTemplateWithoutLink, defaultFromNotVerified, insufficientRole, projectNotFound } from './projects.errors';
import { ProjectsRepository } from './projects.repository';
import { ProjectSettingChecks } from './project-setting-checks';
import { withRetentionChanges } from './retention/retention-policy';

export interface KeyLookup {
  projectId: string;
  kind: 'secret' | 'public';
}

const KEY_CACHE_TTL_MS = 5_000;
const ROLE_RANK: Record<ProjectRole, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };
const KEY_CACHE_MAX = 10_000;

/** A key lookup's own failure, told apart from the cache abandoning a lookup it cleared or evicted. */
class KeyLookupFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('API key lookup failed');
  }
}

/** Signs workflow WEBHOOK requests: `whsec_` + 64 hex (docs/decisions.md#workflows). */
const newWebhookSecret = (): string => `whsec_${randomHex(32)}`;

@Injectable()
export class ProjectsService {
  /**
   * Key digests resolve to projects for a few seconds without a query; rotation clears this
   * process's entries. Concurrent misses of one digest share one lookup (`fetch`): under load every
   * connection used to miss at each expiry at once. Clearing (or evicting) an entry aborts its
   * lookup under way, so an answer read before a rotation is never cached.
   */
  private readonly keyCache = new LRUCache<string, { value: KeyLookup | null }>({
    max: KEY_CACHE_MAX,
    ttl: KEY_CACHE_TTL_MS,
    fetchMethod: (digest) =>
      this.lookupKey(digest).then(
        (value) => ({ value }),
        (cause: unknown) => {
          throw new KeyLookupFailed(cause);
        },
      ),
  });

  constructor(
    private readonly repository: ProjectsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settingChecks: ProjectSettingChecks,
  ) {}

  /** Creates the project and makes `ownerId` its OWNER in one transaction. */
  async create(ownerId: string, name: string): Promise<{ project: Project; keys: KeyPair }> {
    return this.dataSource.transaction((em) => this.createIn(em, ownerId, name));
  }

  /** `create` inside the caller's transaction (bootstrap). */
  async createIn(em: EntityManager, ownerId: string, name: string): Promise<{ project: Project; keys: KeyPair }> {
    const keys = generateKeyPair();
    const project = await this.repository.insertWithOwner(
      {
        name: name.trim(),
        ...keyColumns(keys),
        disabled: false,
        disabledReason: null,
        disabledAt: null,
        tracking: 'ENABLED',
        language: 'en',
        webhookSecret: newWebhookSecret(),
        defaultFromAddress: null,
        defaultFromName: null,
        doubleOptIn: { enabled: false },
        retention: {},
      },
      ownerId,
      em,
    );
    return { project, keys };
  }

  /** With `manager`, read in the caller's transaction (the embedded database serves one transaction at a time). */
  async findById(projectId: string, manager?: EntityManager): Promise<Project> {
    const project = await this.repository.findById(projectId, manager);
    if (!project) throw projectNotFound();
    return project;
  }

  async listForUser(userId: string): Promise<Array<{ project: Project; role: ProjectRole }>> {
    return this.repository.membershipsOfUserAcrossProjects(userId);
  }

  async roleOf(projectId: string, userId: string): Promise<ProjectRole | null> {
    return this.repository.roleOf(projectId, userId);
  }

  /** The members who manage the project's settings (OWNER and ADMINs): whom the service tells when it changes one by itself. */
  async managerIds(projectId: string): Promise<string[]> {
    return (await this.repository.members(projectId)).filter((m) => ROLE_RANK[m.role] >= ROLE_RANK.ADMIN).map((m) => m.userId);
  }

  async resolveKey(rawKey: string): Promise<KeyLookup | null> {
    const digest = sha256Hex(rawKey);
    // A remembered answer is read synchronously (`fetch` is async, and every request asks).
    const remembered = this.keyCache.get(digest);
    if (remembered) return remembered.value;
    try {
      return (await this.keyCache.fetch(digest))!.value;
    } catch (err) {
      if (err instanceof KeyLookupFailed) throw err.cause;
      // The cache dropped the shared lookup (a rotation cleared it, or 10,000 newer keys evicted
      // it): this caller asks the database itself, after the rotation, without caching the answer.
      return this.lookupKey(digest);
    }
  }

  private async lookupKey(digest: string): Promise<KeyLookup | null> {
    const project = await this.repository.findByKeyDigestAnyProject(digest);
    return project ? { projectId: project.id, kind: project.secretKeyHash === digest ? 'secret' : 'public' } : null;
  }

  async rotateKeys(projectId: string): Promise<{ project: Project; keys: KeyPair }> {
    const keys = generateKeyPair();
    // The workflow webhook signing secret rotates with the keys.
    if (!(await this.repository.update(projectId, { ...keyColumns(keys), webhookSecret: newWebhookSecret() }))) throw projectNotFound();
    this.keyCache.clear();
    return { project: await this.findById(projectId), keys };
  }

  /** The caller's role; 404 when they are not a member (the project's existence is not revealed), 403 below `min`. */
  async requireRole(projectId: string, userId: string, min: ProjectRole): Promise<ProjectRole> {
    const role = await this.roleOf(projectId, userId);
    if (!role) throw projectNotFound();
    if (ROLE_RANK[role] < ROLE_RANK[min]) throw insufficientRole();
    return role;
  }

  async findForMember(projectId: string, userId: string): Promise<{ project: Project; role: ProjectRole }> {
    const role = await this.requireRole(projectId, userId, 'MEMBER');
    return { project: await this.findById(projectId), role };
  }

  async update(actorId: string, projectId: string, dto: UpdateProjectDto): Promise<{ project: Project; role: ProjectRole }> {
    const role = await this.requireRole(projectId, actorId, 'ADMIN');
    const changes: Partial<Project> = {};
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.tracking !== undefined) changes.tracking = dto.tracking;
    if (dto.language !== undefined) changes.language = dto.language;
    if (dto.disabled === false) Object.assign(changes, { disabled: false, disabledReason: null, disabledAt: null });
    if (dto.defaultFrom !== undefined) Object.assign(changes, await this.defaultFromColumns(projectId, dto.defaultFrom));
    if (dto.doubleOptIn !== undefined) changes.doubleOptIn = await this.doubleOptInSetting(projectId, dto.doubleOptIn);
    if (dto.retention !== undefined) changes.retention = withRetentionChanges((await this.findById(projectId)).retention, dto.retention);
    if (Object.keys(changes).length > 0) await this.repository.update(projectId, changes);
    return { project: await this.findById(projectId), role };
  }

  /** `defaultFrom` as columns: null clears it; an address must be on a verified domain of the project (422 naming the field). */
  private async defaultFromColumns(projectId: string, value: DefaultFromDto | null): Promise<Pick<Project, 'defaultFromAddress' | 'defaultFromName'>> {
    if (value === null) return { defaultFromAddress: null, defaultFromName: null };
    const email = value.email.trim().toLowerCase();
    if (!(await this.settingChecks.senderAllowed(projectId, email))) throw defaultFromNotVerified(email);
    return { defaultFromAddress: email, defaultFromName: value.name?.trim() || null };
  }

  /** The double opt-in setting as stored: its template must be the project's and use `{{confirmUrl}}` (422 naming the field). */
  private async doubleOptInSetting(projectId: string, value: DoubleOptInDto): Promise<Project['doubleOptIn']> {
    const templateId = value.templateId ?? null;
    if (templateId) {
      const verdict = await this.settingChecks.confirmationTemplate(projectId, templateId);
      if (verdict === 'not_found') throw confirmationTemplateNotFound(templateId);
      if (verdict === 'without_link') throw confirmationTemplateWithoutLink(templateId);
    }
    return { enabled: value.enabled, templateId, redirectUrl: value.redirectUrl ?? null };
  }

  async remove(actorId: string, projectId: string): Promise<void> {
    await this.requireRole(projectId, actorId, 'ADMIN');
    await this.delete(projectId);
  }

  /** Deletes the project's data set-based, then the project (members and keys with it), in one transaction. The caller checked who may. */
  /**
   * Deletes the project and every row of it. `unlessShared`: only while its owner is its only
   * member, checked under the project's row lock (false, nothing deleted, when another member is
   * there by then).
   */
  async delete(projectId: string, opts: { unlessShared?: boolean } = {}): Promise<boolean> {
    const deleted = await this.dataSource.transaction(async (em) => {
      if (opts.unlessShared) {
        await this.repository.lockProject(projectId, em);
        if (await this.repository.hasTeamMembers(projectId, em)) return false;
      }
      await this.repository.wipeRowsAcrossOwners(projectId, em);
      await this.repository.deleteProject(projectId, em);
      return true;
    });
    this.keyCache.clear();
    return deleted;
  }

  async regenerateKeys(actorId: string, projectId: string): Promise<{ project: Project; keys: KeyPair; role: ProjectRole }> {
    const role = await this.requireRole(projectId, actorId, 'ADMIN');
    return { ...(await this.rotateKeys(projectId)), role };
  }

  /** Wipes the project's data; the project, its members and keys stay. Irreversible. */
  async reset(actorId: string, projectId: string): Promise<{ tables: string[] }> {
    await this.requireRole(projectId, actorId, 'ADMIN');
    const tables = await this.dataSource.transaction((em) => this.repository.wipeRowsAcrossOwners(projectId, em));
    return { tables };
  }
}
