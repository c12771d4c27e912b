import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { normalizeSuppressed } from '../../emails';
import type { SuppressionReason, SuppressionSource } from './suppression.types';

/** The `suppressions` table (reads that embed it in another statement use `suppressions.sql.ts`). */
@Injectable()
export class SuppressionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Idempotent: the first reason recorded for an address is kept. Returns whether it was added now. */
  async add(projectId: string, email: string, reason: SuppressionReason, source: SuppressionSource, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, email) DO NOTHING RETURNING email`,
      [projectId, normalizeSuppressed(email), reason, source],
    );
    return rows.length > 0;
  }

  async remove(projectId: string, email: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(`DELETE FROM suppressions WHERE project_id = $1 AND email = $2`, [projectId, normalizeSuppressed(email)])) as [unknown, number];
    return affected > 0;
  }
}
