import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Topic, type TopicDefault } from './entities/topic.entity';

export interface TopicValues {
  name: string;
  slug: string;
  description: string | null;
  subscriptionDefault: TopicDefault;
  public: boolean;
}

/** The `topics` table. */
@Injectable()
export class TopicsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Topic);
  }

  list(projectId: string): Promise<Topic[]> {
    return this.repo().find({ where: { projectId }, order: { name: 'ASC', id: 'ASC' } });
  }

  findById(projectId: string, id: string, manager?: EntityManager): Promise<Topic | null> {
    return this.repo(manager).findOne({ where: { projectId, id } });
  }

  /** The project's topics among these slugs. */
  bySlugs(projectId: string, slugs: string[], manager?: EntityManager): Promise<Array<{ slug: string; default: TopicDefault }>> {
    return (manager ?? this.dataSource.manager).query(`SELECT slug, subscription_default AS "default" FROM topics WHERE project_id = $1 AND slug = ANY($2::text[])`, [projectId, slugs]);
  }

  /** Throws the unique violation of `topics_project_slug_key` for a taken slug. */
  async create(projectId: string, values: TopicValues): Promise<Topic> {
    return this.repo().save(Object.assign(new Topic(), { projectId, ...values }));
  }

  async update(projectId: string, id: string, values: Partial<Omit<TopicValues, 'slug'>>, manager?: EntityManager): Promise<Topic | null> {
    if (Object.keys(values).length > 0) await this.repo(manager).update({ projectId, id }, values);
    return this.findById(projectId, id, manager);
  }

  /** The row locked for the caller's transaction. */
  findForUpdate(projectId: string, id: string, manager: EntityManager): Promise<Topic | null> {
    return this.repo(manager).findOne({ where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
  }

  async remove(projectId: string, id: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ projectId, id });
  }

  async hasAny(projectId: string): Promise<boolean> {
    return (await this.repo().count({ where: { projectId }, take: 1 })) > 0;
  }
}
