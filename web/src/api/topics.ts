import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type Topic = components['schemas']['TopicResponse'];
export type TopicDefault = Topic['default'];
export type CreateTopicBody = components['schemas']['CreateTopicDto'];
export type UpdateTopicBody = components['schemas']['UpdateTopicDto'];

export const TOPIC_DEFAULT_LABELS: Record<TopicDefault, string> = {
  opt_out: 'Everyone, unless they leave (opt-out)',
  opt_in: 'Only those who join (opt-in)',
};

export function useTopics() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'topics', 'list'), queryFn: ({ signal }) => data(api.GET('/topics', { signal })) });
}

export function useTopic(topicId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'topics', 'one', topicId), queryFn: () => data(api.GET('/topics/{id}', { params: { path: { id: topicId } } })) });
}

/** Whether a contact with these choices is a member of the topic (the service's rule). */
export const isTopicMember = (choices: Record<string, boolean> | undefined, topic: Pick<Topic, 'slug' | 'default'>): boolean =>
  topic.default === 'opt_in' ? choices?.[topic.slug] === true : choices?.[topic.slug] !== false;
