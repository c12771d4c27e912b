import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FieldTypeCache } from './data/field-type-cache';
import { FieldType, typedKeys } from './data/field-types';
import type { JsonObject } from './data/data-patch';

/**
 * Field types per project: the first non-null value of a key fixes its type
 * (`INSERT … ON CONFLICT DO NOTHING`, set-based for every key of a write).
 */
@Injectable()
export class ContactFieldsService {
  readonly cache = new FieldTypeCache();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO contact_fields (project_id, key, type)
       SELECT $1, k, t FROM unnest($2::text[], $3::text[]) AS x(k, t)
       ON CONFLICT (project_id, key) DO NOTHING`,
      [projectId, [...first.keys()], [...first.values()]],
    );
    this.cache.remember(projectId, [...first.keys()]);
  }
}
