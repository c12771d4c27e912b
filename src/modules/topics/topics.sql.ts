import { Fragment, raw, sql } from '../../platform/database/sql-fragment';
import type { TopicDefault } from './entities/topic.entity';

/** What the membership rule needs of a topic. */
export interface TopicRule {
  slug: string;
  default: TopicDefault;
}

/**
 * A contact's effective membership of a topic, as a boolean SQL expression over the contact's
 * `topics` column (`column`: trusted text such as `c.topics`): an `opt_out` topic counts every
 * contact that did not choose false, an `opt_in` topic only those that chose true. Written as
 * containment so the GIN index `contacts_topics_gin_idx` can serve it.
 */
export function topicMemberSql(column: string, topic: TopicRule): Fragment {
  // The object is built here and cast from one parameter: a constant the planner folds (and can
  // match to the index), where jsonb_build_object (stable, not immutable) ran once per row.
  const choice = (value: boolean) => JSON.stringify({ [topic.slug]: value });
  return topic.default === 'opt_in' ? sql`${raw(column)} @> ${choice(true)}::jsonb` : sql`NOT (${raw(column)} @> ${choice(false)}::jsonb)`;
}

/** The same rule in TS, over a contact's explicit choices. */
export function isTopicMember(choices: Record<string, boolean> | null | undefined, topic: TopicRule): boolean {
  const choice = choices?.[topic.slug];
  return topic.default === 'opt_in' ? choice === true : choice !== false;
}

/** The rule of the topic with this id (trusted SQL, e.g. a content row's `topic_id`) as jsonb `{slug, default}` (a `TopicRule`), NULL when there is none. */
export const topicRuleSql = (topicId: string): string =>
  `(SELECT jsonb_build_object('slug', t.slug, 'default', t.subscription_default) FROM topics t WHERE t.id = ${topicId})`;
