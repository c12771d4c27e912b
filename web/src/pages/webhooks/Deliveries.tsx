import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { DELIVERY_STATUSES, type DeliveryStatus, useDeliveries, type Webhook } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { CursorListView } from '../../components/CursorListView';
import { DataTable } from '../../components/DataTable';
import { ErrorMessage } from '../../components/ErrorMessage';
import { EmptyState } from '../../components/Feedback';
import { FilterSelect } from '../../components/ListToolbar';
import { useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { useUrlParams } from '../../lib/useUrlParams';
import { DeliveryStatusBadge, firstAttemptInFlight, ResponseSummary } from './status';

const STATUS_OPTIONS = DELIVERY_STATUSES.map((s) => ({ value: s, label: s }));

/** The endpoint's deliveries, newest first, filtered by status (kept in the URL); each can be retried by hand. */
export function Deliveries({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [params, setParams] = useUrlParams();
  const raw = params.get('status') ?? '';
  const status: DeliveryStatus | '' = (DELIVERY_STATUSES as string[]).includes(raw) ? (raw as DeliveryStatus) : '';
  const log = useDeliveries(webhook.id, status);
  const retry = useApiMutation({
    mutationFn: (deliveryId: string) => data(api.POST('/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id: webhook.id, deliveryId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks') }),
  });
  const total = log.data?.pages[0]?.total;
  return (
    <section aria-labelledby="wh-deliveries">
      <h2 id="wh-deliveries">Deliveries</h2>
      <div className="toolbar">
        <FilterSelect label="Status" value={status} allLabel="All statuses" options={STATUS_OPTIONS} onChange={(value) => setParams({ status: value })} />
        {total !== undefined && <p className="muted">{total.toLocaleString()} in all</p>}
      </div>
      <ErrorMessage error={retry.error} title="Could not retry" />
      <CursorListView
        query={log}
        loadingLabel="Loading deliveries…"
        errorTitle="Could not load the deliveries"
        empty={
          <EmptyState title={status ? `No ${status} deliveries` : 'No deliveries yet'}>
            <p>
              {status
                ? 'Choose "All statuses" to see the others.'
                : webhook.enabled
                  ? 'Each event this endpoint subscribes to shows up here as it is sent. "Send test event" sends one now.'
                  : 'The endpoint is disabled: enable it to receive events.'}
            </p>
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable caption="Deliveries" columns={['Event', 'Status', 'Attempts', 'Last attempt', 'Answer', 'Actions']}>
            {items.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to={projectPath(projectId, 'webhooks', webhook.id, 'deliveries', d.id)}>{d.type}</Link>
                  <div className="muted">
                    {d.kind === 'event' ? '' : `${d.kind} · `}
                    {formatDate(d.createdAt)}
                  </div>
                </td>
                <td>
                  <DeliveryStatusBadge delivery={d} inFlight={firstAttemptInFlight(d)} />
                </td>
                <td>{d.attempts}</td>
                <td>{formatDate(d.lastAttemptAt)}</td>
                <td>
                  {d.attempts > 0 && !firstAttemptInFlight(d) ? <ResponseSummary delivery={d} /> : <span className="muted">—</span>}
                </td>
                <td>
                  {d.status !== 'succeeded' && (
                    <Button onClick={() => void retry.submit(d.id)} pending={retry.isPending && retry.variables === d.id} pendingLabel="Retrying…" aria-label={`Retry now: ${d.type} delivery ${d.id}`}>
                      Retry now
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </section>
  );
}
