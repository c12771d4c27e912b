import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../platform/database/pg-errors';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { slugOf } from '../../platform/slug';
import type { CreateTopicDto } from './dto/create-topic.dto';
import { toTopicResponse, TopicResponse } from './dto/topic.response';
import type { UpdateTopicDto } from './dto/update-topic.dto';
import { TopicsRepository } from './topics.repository';
import { slugImmutable, topicInUse, topicNameWithoutSlug, topicNotFound, topicSlugTaken, unknownTopicId, unknownTopics } from './topics.errors';
import type { TopicRule } from './topics.sql';

/** Campaign statuses during which a campaign's topic cannot be deleted (persisted upper-case). */
const ACTIVE_CAMPAIGN_STATUSES = new Set(['SCHEDULED', 'SENDING']);

/** Work other modules do in the transaction that deletes a topic (contacts drop their choices of its slug). */
export type TopicRemovalHook = (projectId: string, slug: string, manager: EntityManager) => Promise<void>;

@Injectable()
export class TopicsService {
  private readonly removalHooks: TopicRemovalHook[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: TopicsRepository,
    private readonly usage: UsageRegistry,
  ) {}

  /** Registered by the owners of data that names topics by slug. */
  onRemove(hook: TopicRemovalHook): void {
    this.removalHooks.push(hook);
  }

  async list(projectId: string): Promise<TopicResponse[]> {
    return (await this.repository.list(projectId)).map(toTopicResponse);
  }

  async get(projectId: string, id: string): Promise<TopicResponse> {
    const topic = await this.repository.findById(projectId, id);
    if (!topic) throw topicNotFound();
    return toTopicResponse(topic);
  }

  async create(projectId: string, dto: CreateTopicDto): Promise<TopicResponse> {
    const slug = dto.slug ?? slugOf(dto.name);
    if (!slug) throw topicNameWithoutSlug(dto.name);
    try {
      const topic = await this.repository.create(projectId, {
        name: dto.name,
        slug,
        description: dto.description ?? null,
        subscriptionDefault: dto.default,
        public: dto.public ?? true,
      });
      return toTopicResponse(topic);
    } catch (error) {
      if (isUniqueViolation(error)) throw topicSlugTaken(slug);
      throw error;
    }
  }

  async update(projectId: string, id: string, dto: UpdateTopicDto): Promise<TopicResponse> {
    if (dto.slug !== undefined) throw slugImmutable(dto.slug);
    const values: Parameters<TopicsRepository['update']>[2] = {};
    if (dto.name !== undefined) values.name = dto.name;
    if (dto.description !== undefined) values.description = dto.description;
    if (dto.default !== undefined) values.subscriptionDefault = dto.default;
    if (dto.public !== undefined) values.public = dto.public;
    const topic = await this.repository.update(projectId, id, values);
    if (!topic) throw topicNotFound();
    return toTopicResponse(topic);
  }

  /** 409 while a SCHEDULED or SENDING campaign targets it; contacts' choices of its slug go with it. */
  async remove(projectId: string, id: string): Promise<void> {
    const refs = await this.usage.find(projectId, { kind: 'topic', id });
    const active = refs.campaigns.filter((c) => c.status !== undefined && ACTIVE_CAMPAIGN_STATUSES.has(c.status));
    if (active.length > 0) throw topicInUse(active.map(({ id: campaignId, name }) => ({ id: campaignId, name })));
    await this.dataSource.transaction(async (em) => {
      const topic = await this.repository.findForUpdate(projectId, id, em);
      if (!topic) throw topicNotFound();
      await this.repository.remove(projectId, id, em);
      for (const hook of this.removalHooks) await hook(projectId, topic.slug, em);
    });
  }

  /** The rules of those of these slugs the project has topics for (no error for the others). */
  async knownRules(projectId: string, slugs: string[], manager?: EntityManager): Promise<Map<string, TopicRule>> {
    const unique = [...new Set(slugs)];
    const rows = unique.length > 0 ? await this.repository.bySlugs(projectId, unique, manager) : [];
    return new Map(rows.map((r) => [r.slug, r]));
  }

  /** The rules of these slugs; a 422 naming each slug the project has no topic for (`field.<slug>`). */
  async rulesOf(projectId: string, slugs: string[], field = 'topics', manager?: EntityManager): Promise<Map<string, TopicRule>> {
    const rules = await this.knownRules(projectId, slugs, manager);
    const missing = [...new Set(slugs)].filter((s) => !rules.has(s));
    if (missing.length > 0) throw unknownTopics(missing, field);
    return rules;
  }

  /** A campaign's topic: its rule, or the 422 on `field` when the project has no such topic. */
  async ruleOfId(projectId: string, id: string, field = 'topicId', manager?: EntityManager): Promise<TopicRule & { id: string; name: string }> {
    const rule = await this.findRule(projectId, id, manager);
    if (!rule) throw unknownTopicId(id, field);
    return rule;
  }

  /** The rule of a topic by id, or null when it is gone (a campaign whose topic was deleted). */
  async findRule(projectId: string, id: string, manager?: EntityManager): Promise<(TopicRule & { id: string; name: string }) | null> {
    const topic = isUuid(id) ? await this.repository.findById(projectId, id, manager) : null;
    return topic ? { id: topic.id, name: topic.name, slug: topic.slug, default: topic.subscriptionDefault } : null;
  }
}
