import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { FieldType } from './data/field-types';

/** The `contact_fields` table: the type of each custom key per project. */
@Injectable()
export class ContactFieldsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts the keys' first-seen types (`INSERT … ON CONFLICT DO NOTHING`), one statement. */
  async insertTypes(projectId: string, keys: string[], types: FieldType[], manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO contact_fields (project_id, key, type)
       SELECT $1, k, t FROM unnest($2::text[], $3::text[]) AS x(k, t)
       ON CONFLICT (project_id, key) DO NOTHING`,
      [projectId, keys, types],
    );
  }

  /** The project's keys with their types, by key: all of them, or those among `keys`. */
  keyTypes(projectId: string, keys?: string[], manager?: EntityManager): Promise<Array<{ key: string; type: FieldType }>> {
    const db = manager ?? this.dataSource.manager;
    if (keys === undefined) return db.query(`SELECT key, type FROM contact_fields WHERE project_id = $1 ORDER BY key`, [projectId]);
    if (keys.length === 0) return Promise.resolve([]);
    return db.query(`SELECT key, type FROM contact_fields WHERE project_id = $1 AND key = ANY($2::text[]) ORDER BY key`, [projectId, keys]);
  }

  /** Whether the key, or a key nested below it, has a type row. */
  async isKnown(projectId: string, key: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM contact_fields WHERE project_id = $1 AND (key = $2 OR left(key, length($2) + 1) = $2 || '.') LIMIT 1`,
      [projectId, key],
    );
    return rows.length > 0;
  }

  /** Deletes the key's type row and those of keys nested below it; answers how many went. */
  async removeKey(projectId: string, key: string, manager?: EntityManager): Promise<number> {
    const deleted: [unknown[], number] = await (manager ?? this.dataSource.manager).query(
      `DELETE FROM contact_fields WHERE project_id = $1 AND (key = $2 OR left(key, length($2) + 1) = $2 || '.')`,
      [projectId, key],
    );
    return deleted[1];
  }
}
