import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Fragment, raw, sql } from '../../platform/database/sql-fragment';
import { validationError } from '../../platform/http/app-error';
import { ContactFieldsService } from '../contacts';
import type { FieldType } from '../contacts';
import { CompileContext, compileFilter, compileSingleFilter, Filter, FilterTree, referencedDataKeys, referencedSegments, referencedTopics, SegmentDefinition, validateFilterTree } from '../filters';
import { storedMemberSql } from './segment-members.sql';
import { invalidCondition, segmentTooSlow } from './segments.errors';
import { SegmentsRepository } from './segments.repository';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { TopicsService } from '../topics';

/** Who a query selects: every contact, a segment's members, or an ad-hoc tree (campaign `audienceCondition`). */
export type Audience = 'ALL' | { segmentId: string } | { tree: FilterTree };

const QUERY_CANCELED = '57014';

/**
 * The filter engine as other modules call it (see the API summary at the top of
 * segments.service.ts). Conditions are SQL fragments over alias `c` (table `contacts`) that
 * already include `c.project_id = <project>`; PostgreSQL evaluates them, nothing is loaded here.
 */
@Injectable()
export class AudienceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly segments: SegmentsRepository,
    @InjectConfig() private readonly config: AppConfig,
    private readonly contactFields: ContactFieldsService,
    private readonly topics: TopicsService,
  ) {}

  /**
   * Checks a tree (shape, value types against the project's field types, segment references of
   * this project without cycles) and returns it typed; otherwise 422 with one item per problem,
   * `field` a path from `root` (`condition.groups[0].filters[1].value`).
   */
  async validateTree(projectId: string, tree: unknown, options: { root?: string; selfId?: string } = {}): Promise<FilterTree> {
    const root = options.root ?? 'condition';
    const shape = validateFilterTree(tree, root);
    if (shape.length > 0) throw invalidCondition(shape);
    const typed = tree as FilterTree;
    const ctx = await this.context(projectId, [typed]);
    const errors = validateFilterTree(typed, root, { ...ctx, selfId: options.selfId });
    if (errors.length > 0) throw invalidCondition(errors);
    return typed;
  }

  /** The audience as one condition over `c`, project-scoped. A segment id not of this project is 422 (`segmentId`). */
  async audienceCondition(projectId: string, audience: Audience, manager?: EntityManager): Promise<Fragment> {
    const scope = sql`c.project_id = ${projectId}::uuid`;
    if (audience === 'ALL') return scope;
    if ('tree' in audience) return sql`${scope} AND (${compileFilter(projectId, audience.tree, await this.context(projectId, [audience.tree], manager))})`;
    const segment = await this.segmentDefinition(projectId, audience.segmentId, manager);
    if (!segment) throw validationError([{ field: 'segmentId', code: 'unknown_segment', message: `no segment ${audience.segmentId} in this project`, received: audience.segmentId }]);
    return sql`${scope} AND (${await this.segmentCondition(projectId, segment, manager)})`;
  }

  /** A stored segment's membership as a condition over `c` (without the project scope). */
  async segmentCondition(projectId: string, segment: SegmentDefinition, manager?: EntityManager): Promise<Fragment> {
    return (await this.compiledSegment(projectId, segment, manager)).condition;
  }

  /**
   * A segment of the project as `audienceCondition` gives it, with a `key` that is equal for two
   * calls exactly when they compile the same definition: the segment's condition, the segments it
   * references and the key types it reads. Time passing and contacts changing leave it as it is,
   * so it names "the same question" for reusing an answer (SegmentsService.members).
   */
  async segmentAudience(projectId: string, segmentId: string, manager?: EntityManager): Promise<{ where: Fragment; key: string }> {
    const segment = await this.segmentDefinition(projectId, segmentId, manager);
    if (!segment) throw validationError([{ field: 'segmentId', code: 'unknown_segment', message: `no segment ${segmentId} in this project`, received: segmentId }]);
    const { condition, key } = await this.compiledSegment(projectId, segment, manager);
    return { where: sql`c.project_id = ${projectId}::uuid AND (${condition})`, key: key() };
  }

  private async compiledSegment(projectId: string, segment: SegmentDefinition, manager?: EntityManager): Promise<{ condition: Fragment; key: () => string }> {
    if (segment.type === 'STATIC') {
      return { condition: storedMemberSql(segment.id), key: () => `static:${segment.id}` };
    }
    const tree = segment.condition;
    if (!tree) return { condition: raw('FALSE'), key: () => `empty:${segment.id}` };
    const ctx = await this.context(projectId, [tree], manager);
    return {
      condition: compileFilter(projectId, tree, ctx),
      // Compiled again at a fixed instant, the text and values differ only where the definition does.
      key: () => {
        const fixed = compileFilter(projectId, tree, { ...ctx, now: new Date(0) });
        return `dynamic:${segment.id}:${fixed.text}:${JSON.stringify(fixed.values)}`;
      },
    };
  }

  /**
   * One filter `{field, operator, value?, unit?}` as a condition over `c` (workflow CONDITION
   * steps: `SELECT <fragment> FROM contacts c WHERE c.id = $1 AND c.project_id = $2`).
   * Same operators and semantics as segments; validate with `validateTree` first.
   */
  async filterCondition(projectId: string, filter: Filter, manager?: EntityManager): Promise<Fragment> {
    const tree: FilterTree = { logic: 'AND', groups: [{ filters: [filter] }] };
    return compileSingleFilter(projectId, filter, await this.context(projectId, [tree], manager));
  }

  /** How many contacts the audience holds (under the segment statement timeout). */
  async count(projectId: string, audience: Audience, label = 'the audience'): Promise<number> {
    return this.withTimeout(label, async (em) => {
      const where = await this.audienceCondition(projectId, audience, em);
      return this.segments.countAudience(projectId, where, em);
    });
  }

  /**
   * Runs `work` in a transaction whose statements stop after SEGMENT_QUERY_TIMEOUT_MS; a timeout
   * becomes 422 naming `label` (e.g. `segment "VIP" (id)`), never a 500 or an endless scan.
   * PostgreSQL's JIT is off there: a count over a million contacts costs enough to trigger it, and
   * compiling took ~75 ms of a ~600 ms count while saving nothing (bench/README.md, "Segments").
   */
  async withTimeout<T>(label: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
    const timeoutMs = this.config.segments.queryTimeoutMs;
    try {
      return await this.dataSource.transaction(async (em) => {
        await this.segments.limitStatements(timeoutMs, em);
        return work(em);
      });
    } catch (err) {
      if (isQueryCanceled(err)) throw segmentTooSlow(label, timeoutMs);
      throw err;
    }
  }

  async segmentDefinition(projectId: string, id: string, manager?: EntityManager): Promise<SegmentDefinition | null> {
    if (!isUuid(id)) return null;
    return this.segments.definition(projectId, id, manager);
  }

  /** The key types and the referenced segments (transitively, this project only) that compiling the trees needs. */
  async context(projectId: string, trees: FilterTree[], manager?: EntityManager): Promise<CompileContext> {
    const segments = new Map<string, SegmentDefinition>();
    const keys = new Set(trees.flatMap(referencedDataKeys));
    const slugs = new Set(trees.flatMap(referencedTopics));
    let pending = [...new Set(trees.flatMap(referencedSegments))];
    for (let round = 0; pending.length > 0 && round < 20; round++) {
      const rows = await this.segments.definitions(projectId, pending, manager);
      const next = new Set<string>();
      for (const row of rows) {
        segments.set(row.id, row);
        if (row.type !== 'DYNAMIC' || !row.condition) continue;
        for (const key of referencedDataKeys(row.condition)) keys.add(key);
        for (const slug of referencedTopics(row.condition)) slugs.add(slug);
        for (const id of referencedSegments(row.condition)) if (!segments.has(id)) next.add(id);
      }
      pending = [...next];
    }
    const fieldTypes = new Map<string, FieldType>((await this.contactFields.keyTypes(projectId, [...keys], manager)).map((row) => [row.key, row.type]));
    const topics = await this.topics.knownRules(projectId, [...slugs], manager);
    return { fieldTypes, segments, topics, storedMembers: storedMemberSql };
  }
}

export function isQueryCanceled(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } } | null;
  return e?.code === QUERY_CANCELED || e?.driverError?.code === QUERY_CANCELED;
}
