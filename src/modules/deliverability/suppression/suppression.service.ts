import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SuppressionReason, SuppressionSource } from './suppression.types';

const normalize = (email: string): string => email.trim().toLowerCase();

/** The key `suppressedAmong` answers with for this (project, address). */
export const suppressionKey = (projectId: string, email: string): string => `${projectId}/${normalize(email)}`;

@Injectable()
export class SuppressionService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Which of these (project, address) pairs are suppressed, in one query; keys are `projectId/email` (normalized). */
  async suppressedAmong(pairs: Array<{ projectId: string; email: string }>, manager?: EntityManager): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: Array<{ project_id: string; email: string }> = await (manager ?? this.dataSource.manager).query(
      `SELECT s.project_id, s.email FROM suppressions s
         JOIN unnest($1::uuid[], $2::text[]) AS x(project_id, email) ON s.project_id = x.project_id AND s.email = x.email`,
      [pairs.map((p) => p.projectId), pairs.map((p) => normalize(p.email))],
    );
    return new Set(rows.map((r) => suppressionKey(r.project_id, r.email)));
  }

  /** Idempotent: the first reason recorded for an address is kept. Returns whether it was added now. */
  async add(projectId: string, email: string, reason: SuppressionReason, source: SuppressionSource = 'api', manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, email) DO NOTHING RETURNING email`,
      [projectId, normalize(email), reason, source],
    );
    return rows.length > 0;
  }

  async remove(projectId: string, email: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(`DELETE FROM suppressions WHERE project_id = $1 AND email = $2`, [projectId, normalize(email)])) as [unknown, number];
    return affected > 0;
  }
}
