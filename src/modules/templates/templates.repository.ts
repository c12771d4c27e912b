import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SENDER_DOMAIN_MATCHES } from '../domains';
import type { TemplateSort } from './templates.rows';
import { Template, TemplateType } from './entities/template.entity';

const SORT_COLUMNS: Record<TemplateSort, string> = { name: 'lower(t.name)', createdAt: 't.created_at', updatedAt: 't.updated_at' };

export type NewTemplate = Omit<Template, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>;

export interface TemplatePageQuery {
  type?: TemplateType;
  search?: string;
  sort: TemplateSort;
  dir: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/** The templates module's table: templates. */
@Injectable()
export class TemplatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get templates() {
    return this.dataSource.getRepository(Template);
  }

  insert(projectId: string, values: NewTemplate): Promise<Template> {
    return this.templates.save(this.templates.create({ ...values, projectId }));
  }

  /** Writes a loaded template's changes (it carries its project id). */
  save(template: Template): Promise<Template> {
    return this.templates.save(template);
  }

  /** One offset page of the project's templates and their total, filtered by type and by a substring of name, description or subject. */
  async page(projectId: string, query: TemplatePageQuery): Promise<[Template[], number]> {
    const qb = this.templates.createQueryBuilder('t').where('t.project_id = :projectId', { projectId });
    if (query.type) qb.andWhere('t.type = :type', { type: query.type });
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(`(t.name ILIKE :pattern OR t.description ILIKE :pattern OR t.subject ILIKE :pattern)`, { pattern });
    }
    qb.orderBy(SORT_COLUMNS[query.sort], query.dir).addOrderBy('t.id', query.dir).offset(query.offset).limit(query.limit);
    return qb.getManyAndCount();
  }

  /** With `manager`, read in the caller's transaction. */
  findOne(projectId: string, id: string, manager?: EntityManager): Promise<Template | null> {
    return (manager ? manager.getRepository(Template) : this.templates).findOneBy({ projectId, id });
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.templates.delete({ projectId, id });
  }

  /** The project's templates sending from `domain` or one of its subdomains. */
  /** Names by id (ids must be well-formed uuids). */
  names(projectId: string, ids: string[]): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(`SELECT id::text AS id, name FROM templates WHERE project_id = $1 AND id = ANY($2::uuid[])`, [projectId, ids]);
  }

  sendingFromDomain(projectId: string, domain: string): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(`SELECT id::text AS id, name FROM templates WHERE project_id = $1 AND ${SENDER_DOMAIN_MATCHES('from_address', 2)}`, [projectId, domain]);
  }

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM templates WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }
}
