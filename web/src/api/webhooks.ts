import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

type Schemas = components['schemas'];

export type Webhook = Schemas['WebhookResponse'];
/** Creation answers the endpoint with its signing secret, once. */
export type CreatedWebhook = Schemas['CreatedWebhookResponse'];
export type CreateWebhookBody = Schemas['CreateWebhookDto'];
export type UpdateWebhookBody = Schemas['UpdateWebhookDto'];
export type WebhookDelivery = Schemas['DeliveryResponse'];
/** A delivery with its request body and every attempt (`attempts` is the list here, `attemptCount` their number). */
export type WebhookDeliveryDetail = Schemas['DeliveryDetailResponse'];
export type WebhookAttempt = Schemas['AttemptResponse'];
export type DeliveryStatus = WebhookDelivery['status'];
export type TestResult = Schemas['WebhookTestResponse'];

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

export function useWebhooks() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'webhooks', 'list'), queryFn: ({ signal }) => data(api.GET('/webhooks', { signal })) });
}

export function useWebhook(webhookId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'webhooks', 'one', webhookId),
    queryFn: () => data(api.GET('/webhooks/{id}', { params: { path: { id: webhookId } } })),
    // Deliveries change it (last success, failing since, disabled by a 410): read again now and then.
    refetchInterval: 10_000,
  });
}

/** The deliveries log, newest first, a cursor page at a time; read again every few seconds while one is pending. */
export function useDeliveries(webhookId: string, status: DeliveryStatus | '') {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'webhooks', 'deliveries', webhookId, status),
    queryFn: ({ pageParam, signal }) =>
      data(api.GET('/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { status: status || undefined, limit: 25, cursor: pageParam } }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending')) ? 2000 : 10_000),
  });
}

export function useDelivery(webhookId: string, deliveryId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'webhooks', 'delivery', webhookId, deliveryId),
    queryFn: () => data(api.GET('/webhooks/{id}/deliveries/{deliveryId}', { params: { path: { id: webhookId, deliveryId } } })),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2000 : false),
  });
}
