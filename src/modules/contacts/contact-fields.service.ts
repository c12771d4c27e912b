import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { clampLimit, CursorPage, cursorPage, decodeCursor } from '../../platform/http/pagination';
import { ContactFieldsRepository } from './contact-fields.repository';
import { ContactsRepository } from './contacts.repository';
import { fieldNotFound, standardFieldNotDeletable } from './contacts.errors';
import type { JsonObject } from './data/data-patch';
import { FieldTypeCache } from './data/field-type-cache';
import { FieldType, typedKeys } from './data/field-types';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { referencesOf, References } from '../../platform/usage/usage-response';

export interface FieldDescriptor {
  field: string;
  type: FieldType;
  isCustom: boolean;
  coverage: number;
}

/** Standard contact fields: wire name → column and type. */
const STANDARD: Record<string, { column: string; type: FieldType }> = {
  email: { column: 'email', type: 'string' },
  subscribed: { column: 'subscribed', type: 'boolean' },
  createdAt: { column: 'created_at', type: 'date' },
  updatedAt: { column: 'updated_at', type: 'date' },
};

type ParsedField = { kind: 'standard'; name: string; column: string } | { kind: 'custom'; field: string; key: string; path: string[] };

/** `email` … or `data.<key>[.<nested>…]`; anything else is not a field (404). */
function parseField(raw: string): ParsedField | null {
  if (raw.length > 512) return null;
  const standard = STANDARD[raw];
  if (standard && Object.prototype.hasOwnProperty.call(STANDARD, raw)) return { kind: 'standard', name: raw, column: standard.column };
  if (!raw.startsWith('data.')) return null;
  const key = raw.slice('data.'.length);
  const path = key.split('.');
  if (path.some((segment) => segment.length === 0)) return null;
  return { kind: 'custom', field: raw, key, path };
}

/**
 * Field types per project: the first non-null value of a key fixes its type
 * (`INSERT … ON CONFLICT DO NOTHING`, set-based for every key of a write). Nested values are
 * typed by dotted path (`profile.tier`, reported as `data.profile.tier`).
 */
@Injectable()
export class ContactFieldsService {
  readonly cache = new FieldTypeCache();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ContactFieldsRepository,
    private readonly contacts: ContactsRepository,
    private readonly usageRegistry: UsageRegistry,
    setup: SetupProbes,
  ) {
    setup.register('hasContacts', (projectId) => this.contacts.hasAny(projectId));
  }

  /** The typed keys of `values` whose type row may not exist yet (to write in the same statement). */
  pendingTypes(projectId: string, values: JsonObject): Array<[string, FieldType]> {
    return this.cache.unknown(projectId, typedKeys(values));
  }

  /** Registers the types of every key of every value set (e.g. an import batch) in one statement. */
  async register(projectId: string, valueSets: JsonObject[], manager?: EntityManager): Promise<void> {
    const first = new Map<string, FieldType>();
    for (const values of valueSets) {
      for (const [key, type] of this.pendingTypes(projectId, values)) if (!first.has(key)) first.set(key, type);
    }
    if (first.size === 0) return;
    await this.repository.insertTypes(projectId, [...first.keys()], [...first.values()], manager);
    this.cache.remember(projectId, [...first.keys()]);
  }

  /**
   * Standard fields first, then custom ones by key. Coverage comes from one scan of the
   * project's contacts that walks each `data` document once (a recursive CTE over its objects)
   * and counts, per dotted path, the contacts holding a non-null value there: one row per key,
   * not one SQL column per key (which failed past about 1,660 keys).
   */
  async list(projectId: string): Promise<{ fields: FieldDescriptor[] }> {
    const [custom, { counts, total }] = await Promise.all([this.keyTypes(projectId), this.contacts.dataCoverage(projectId)]);
    const present = new Map(counts.map((c) => [c.key, c.n]));
    const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10_000) / 10_000);
    return {
      fields: [
        ...Object.entries(STANDARD).map(([field, { type }]) => ({ field, type, isCustom: false, coverage: total === 0 ? 0 : 1 })),
        ...custom.map((f) => ({ field: `data.${f.key}`, type: f.type, isCustom: true, coverage: share(present.get(f.key) ?? 0) })),
      ],
    };
  }

  /**
   * The project's custom keys (dotted paths) with their inferred types, by key: all of them, or
   * those among `keys`; with `manager`, read in the caller's transaction.
   */
  keyTypes(projectId: string, keys?: string[], manager?: EntityManager): Promise<Array<{ key: string; type: FieldType }>> {
    return this.repository.keyTypes(projectId, keys, manager);
  }

  /** Distinct values, most frequent first (ties by value), as a cursor list of `{value, count}`. */
  async values(projectId: string, rawField: string, query: { limit?: string; cursor?: string }): Promise<CursorPage<{ value: unknown; count: number }>> {
    const field = parseField(rawField);
    if (!field) throw fieldNotFound(rawField);
    if (field.kind === 'custom' && !(await this.isKnown(projectId, field))) throw fieldNotFound(rawField);
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ o: number }>(query.cursor, (c) => Number.isInteger(c.o) && (c.o as number) >= 0);
    const offset = cursor?.o ?? 0;
    const { rows, total } = await this.contacts.distinctValues(projectId, field.kind === 'standard' ? { column: field.column } : { path: field.path }, {
      limit: limit + 1,
      offset,
      withTotal: !cursor,
    });
    return cursorPage(rows, limit, (r) => ({ value: r.value, count: r.count }), () => ({ o: offset + limit }), total);
  }

  async usage(projectId: string, rawField: string): Promise<{ field: string } & References & { total: number }> {
    const field = parseField(rawField);
    if (!field) throw fieldNotFound(rawField);
    const refs = referencesOf(await this.usageRegistry.find(projectId, { kind: 'field', field: field.kind === 'standard' ? field.name : field.field }));
    return { field: rawField, ...refs, total: refs.segments.length + refs.campaigns.length + refs.workflows.length };
  }

  /**
   * Removes the key (and anything nested below it) from every contact of the project in one
   * UPDATE, and its type rows. 404 when neither a type nor any contact has it.
   */
  async remove(projectId: string, rawField: string): Promise<void> {
    const field = parseField(rawField);
    if (!field) throw fieldNotFound(rawField);
    if (field.kind === 'standard') throw standardFieldNotDeletable(rawField);
    const affected = await this.dataSource.transaction(async (em) => {
      const updated = await this.contacts.removeDataPath(projectId, field.path, em);
      const deleted = await this.repository.removeKey(projectId, field.key, em);
      return updated + deleted;
    });
    this.cache.forget(projectId);
    if (affected === 0) throw fieldNotFound(rawField);
  }

  private async isKnown(projectId: string, field: { key: string; path: string[] }): Promise<boolean> {
    return this.repository.isKnown(projectId, field.key);
  }
}
