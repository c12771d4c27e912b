/**
 * Segments, and the filter engine other modules call. Exported by SegmentsModule:
 *
 * AudienceService (audience.service.ts)
 * - `validateTree(projectId, tree, {root?, selfId?}) → FilterTree`: 422 VALIDATION_ERROR with one
 *   item per problem (`field` is a path from `root`, e.g. `audienceCondition.groups[0].filters[1].unit`;
 *   codes unknown_field, unknown_operator, invalid_operator, required, invalid_type, invalid_enum,
 *   unknown_segment, segment_cycle, too_deep, too_large, …): first the tree's declared shape
 *   (`FILTER_TREE`), then, for a tree of that shape, the project's field types, segments and topics.
 * - `audienceCondition(projectId, 'ALL' | {segmentId} | {tree}, manager?) → Fragment`: one
 *   parameterised boolean condition over alias `c` (table `contacts`), project scope included:
 *     const where = await audience.audienceCondition(projectId, { segmentId });
 *     await em.query(`INSERT … SELECT … FROM contacts c WHERE ${where.toText(2)}`, [x, y, ...where.values]);
 *   A `segmentId` not of the project is 422 (`segmentId`, unknown_segment).
 * - `count(projectId, audience, label?) → number` under SEGMENT_QUERY_TIMEOUT_MS (422 naming `label` on timeout).
 * - `filterCondition(projectId, {field, operator, value?, unit?}) → Fragment`: ONE filter, same
 *   semantics, for testing a single contact: `SELECT <fragment> AS ok FROM contacts c WHERE c.id = $1`.
 * - `withTimeout(label, em => …)`: a transaction with the segment statement timeout.
 * Pure functions (no database) in `modules/filters/`: `compileFilter`, `compileSingleFilter`,
 * `FILTER_TREE` (the tree's one declaration), `validateFilterTree`, `parseField`, `canonicalOperator`,
 * the operator tables.
 *
 * SegmentsService (this file): the `/segments` API, membership compute/refresh, and the
 * background recompute (SegmentRecomputeScheduler).
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { offsetPage, OffsetPage, parseOffsetQuery } from '../../platform/http/pagination';
import { ContactsService, normalizeEmail, ContactResponse, toContactResponse, fromContactRow } from '../contacts';
import { EventsService } from '../events';
import { AudienceService } from './audience.service';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { AddMembersResponse, ComputeResponse, SegmentResponse, toSegmentResponse } from './dto/segment.response';
import { AddSegmentMembersDto, RemoveSegmentMembersDto } from './dto/segment-members.dto';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { Segment } from './entities/segment.entity';
import type { FilterTree, SegmentDefinition } from '../filters';
import { conditionNotObject, dynamicOnly, missingSegmentField, segmentInUse, segmentNotFound, staticOnly, typeImmutable } from './segments.errors';
import { PageTotals, reconcileTotal } from './page-totals';
import { SegmentMembersRepository } from './segment-members.repository';
import { SegmentsRepository } from './segments.repository';
import { computeMembership } from './use-cases/compute-membership';
import { summarize } from '../../platform/http/validation';
import { UsageRegistry } from '../../platform/usage/usage.registry';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

@Injectable()
export class SegmentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: SegmentsRepository,
    private readonly memberRows: SegmentMembersRepository,
    private readonly audience: AudienceService,
    private readonly contacts: ContactsService,
    private readonly events: EventsService,
    private readonly usage: UsageRegistry,
  ) {}

  private readonly totals = new PageTotals();

  async create(projectId: string, dto: CreateSegmentDto): Promise<SegmentResponse> {
    if (typeof dto.name !== 'string' || dto.name.trim() === '') throw missingSegmentField('name is required');
    const type = dto.type ?? 'DYNAMIC';
    let condition: FilterTree | null = null;
    if (type === 'DYNAMIC') {
      if (!isObject(dto.condition)) throw missingSegmentField('condition is required for a DYNAMIC segment (a filter tree object)');
      condition = await this.audience.validateTree(projectId, dto.condition);
    }
    // Counted before anything is written: a condition that fails (e.g. its timeout) leaves no segment behind.
    const memberCount = condition ? await this.audience.count(projectId, { tree: condition }, `segment "${dto.name}"`) : 0;
    const saved = await this.repository.create(projectId, {
      name: dto.name,
      description: dto.description ?? null,
      type,
      condition,
      trackMembership: dto.trackMembership ?? false,
      memberCount,
    });
    return toSegmentResponse(saved);
  }

  /** The member count a DYNAMIC segment with this condition would have now; writes nothing. */
  async preview(projectId: string, condition: unknown): Promise<{ memberCount: number }> {
    if (!isObject(condition)) throw missingSegmentField('condition is required (a filter tree object)');
    const tree = await this.audience.validateTree(projectId, condition);
    return { memberCount: await this.audience.count(projectId, { tree }, 'the condition') };
  }

  async list(projectId: string): Promise<SegmentResponse[]> {
    const rows = await this.repository.list(projectId);
    return rows.map(toSegmentResponse);
  }

  async get(projectId: string, id: string): Promise<SegmentResponse> {
    return toSegmentResponse(await this.load(projectId, id));
  }

  async update(projectId: string, id: string, dto: UpdateSegmentDto): Promise<SegmentResponse> {
    const segment = await this.load(projectId, id);
    if (dto.type !== undefined && dto.type !== segment.type) throw typeImmutable(dto.type);
    const changes: Partial<Segment> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.trackMembership !== undefined) changes.trackMembership = dto.trackMembership;
    // STATIC segments ignore a condition (docs/decisions.md#segments-and-filters), on update as on create.
    if (dto.condition !== undefined && segment.type === 'DYNAMIC') {
      if (!isObject(dto.condition)) throw conditionNotObject(summarize(dto.condition));
      changes.condition = await this.audience.validateTree(projectId, dto.condition, { selfId: segment.id });
      changes.memberCount = await this.audience.count(projectId, { tree: changes.condition }, `segment "${segment.name}" (${segment.id})`);
    }
    await this.dataSource.transaction(async (em) => {
      await this.repository.update(projectId, segment.id, changes, em);
      // Tracking switched off forgets the stored membership: switched on again, every member enters anew.
      if (segment.type === 'DYNAMIC' && segment.trackMembership && changes.trackMembership === false) {
        await this.memberRows.clear(projectId, segment.id, em);
      }
    });
    return toSegmentResponse(await this.load(projectId, segment.id));
  }

  /** 409 while another segment's filter or a SCHEDULED/SENDING campaign uses it. */
  async remove(projectId: string, id: string): Promise<void> {
    const segment = await this.load(projectId, id);
    // Through the usage registry, where segments and campaigns each answer for their own records.
    const refs = await this.usage.find(projectId, { kind: 'segment', id: segment.id });
    const uses = {
      segments: refs.segments.filter((s) => s.id !== segment.id).map(({ id, name }) => ({ id, name })),
      campaigns: refs.campaigns.filter((c) => c.status === 'SCHEDULED' || c.status === 'SENDING').map(({ id, name }) => ({ id, name })),
    };
    if (uses.segments.length > 0 || uses.campaigns.length > 0) throw segmentInUse(uses);
    await this.repository.remove(projectId, segment.id);
  }

  /**
   * Live for DYNAMIC segments (the condition now), the stored members for STATIC ones; newest
   * contacts first. The rows are always live; `total` is counted live unless a slow count of the
   * same definition is under 30 s old (page-totals.ts), and always agrees with the rows returned.
   */
  async members(projectId: string, id: string, query: { page?: unknown; pageSize?: unknown }): Promise<OffsetPage<ContactResponse>> {
    const segment = await this.load(projectId, id);
    const { page, pageSize, offset } = parseOffsetQuery(query, 100);
    const label = `segment "${segment.name}" (${segment.id})`;
    return this.audience.withTimeout(label, async (em) => {
      const { where, key } = await this.audience.segmentAudience(projectId, segment.id, em);
      const rows = await this.repository.audiencePage(projectId, where, { limit: pageSize + 1, offset }, em);
      // A page that ends the list needs no count: its total is exact already.
      const ends = rows.length <= pageSize && (rows.length > 0 || offset === 0);
      const counted = ends
        ? 0
        : (this.totals.recent(segment.id, key) ??
          (await this.totals.count(segment.id, key, () => this.repository.countAudience(projectId, where, em))));
      return offsetPage(
        rows.slice(0, pageSize).map((r) => toContactResponse(fromContactRow(r))),
        page,
        pageSize,
        reconcileTotal(counted, offset, pageSize, rows.length),
      );
    });
  }

  async addMembers(projectId: string, id: string, dto: AddSegmentMembersDto): Promise<AddMembersResponse> {
    const segment = await this.load(projectId, id);
    if (segment.type !== 'STATIC') throw staticOnly();
    const sentByEmail = new Map<string, string>();
    for (const sent of dto.emails) if (!sentByEmail.has(normalizeEmail(sent))) sentByEmail.set(normalizeEmail(sent), sent);
    const emails = [...sentByEmail.keys()];
    let afterCommit = () => {};
    const result = await this.dataSource.transaction(async (em) => {
      const found = await this.contacts.idsByEmail(projectId, emails, em);
      const foundEmails = new Set(found.map((r) => r.email));
      const missing = emails.filter((e) => !foundEmails.has(e));
      const ids = found.map((r) => r.id);
      let created = 0;
      let notFound: string[] = missing.map((e) => sentByEmail.get(e)!);
      if (dto.createMissing && missing.length > 0) {
        const upserted = await this.contacts.upsertBatchIn(
          missing.map((email) => ({ projectId, input: { email, defaultSubscribed: dto.subscribed ?? true, source: 'api' as const } })),
          em,
        );
        afterCommit = upserted.afterCommit;
        for (const r of upserted.results) {
          ids.push(r.contact.id);
          if (r.isNew) created++;
        }
        notFound = [];
      }
      const inserted = await this.memberRows.add(projectId, segment.id, ids, em);
      await this.storeCount(em, projectId, segment.id);
      return { added: inserted.length, alreadyMembers: ids.length - inserted.length, created, notFound };
    });
    afterCommit();
    return result;
  }

  async removeMembers(projectId: string, id: string, dto: RemoveSegmentMembersDto): Promise<{ removed: number }> {
    const segment = await this.load(projectId, id);
    if (segment.type !== 'STATIC') throw staticOnly();
    const emails = [...new Set(dto.emails.map(normalizeEmail))];
    return this.dataSource.transaction(async (em) => {
      const contacts = await this.contacts.idsByEmail(projectId, emails, em);
      const removed = await this.memberRows.remove(
        projectId,
        segment.id,
        contacts.map((c) => c.id),
        em,
      );
      await this.storeCount(em, projectId, segment.id);
      return { removed };
    });
  }

  /** Tracked DYNAMIC: membership written and entry/exit events emitted; untracked: the count. STATIC: 400. */
  async compute(projectId: string, id: string): Promise<ComputeResponse> {
    const segment = await this.load(projectId, id);
    if (segment.type !== 'DYNAMIC') throw dynamicOnly();
    if (segment.trackMembership) {
      this.totals.forget(segment.id);
      return computeMembership(this.computeDeps(), projectId, definitionOf(segment));
    }
    return { memberCount: await this.countNow(projectId, segment), entered: 0, exited: 0 };
  }

  /** The count only: no membership written, nothing emitted. */
  async refresh(projectId: string, id: string): Promise<{ memberCount: number }> {
    const segment = await this.load(projectId, id);
    return { memberCount: await this.countNow(projectId, segment) };
  }

  /** One step of the background recompute: the segment after `afterId` (any project), or null at the end. */
  async recomputeNext(afterId: string | null): Promise<{ id: string; result: ComputeResponse } | null> {
    const next = await this.repository.nextAcrossProjects(afterId);
    if (!next) return null;
    const segment = await this.load(next.project_id, next.id);
    const result =
      segment.type === 'DYNAMIC' && segment.trackMembership
        ? await computeMembership(this.computeDeps(), segment.projectId, definitionOf(segment))
        : { memberCount: await this.countNow(segment.projectId, segment), entered: 0, exited: 0 };
    return { id: segment.id, result };
  }

  /** Counts the segment now and stores it as `memberCount`. */
  private async countNow(projectId: string, segment: Segment): Promise<number> {
    this.totals.forget(segment.id);
    const n = await this.audience.count(projectId, { segmentId: segment.id }, `segment "${segment.name}" (${segment.id})`);
    await this.repository.storeMemberCount(projectId, segment.id, n);
    return n;
  }

  private async storeCount(em: EntityManager, projectId: string, segmentId: string): Promise<void> {
    this.totals.forget(segmentId);
    await this.repository.storeStoredMemberCount(projectId, segmentId, em);
  }

  private computeDeps() {
    return { audience: this.audience, events: this.events, members: this.memberRows, segments: this.repository };
  }

  private async load(projectId: string, id: string): Promise<Segment> {
    const segment = await this.repository.findById(projectId, id);
    if (!segment) throw segmentNotFound();
    return segment;
  }
}

function definitionOf(s: Segment): SegmentDefinition {
  return { id: s.id, name: s.name, type: s.type, condition: s.condition };
}
