import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useDelivery, useWebhook, type WebhookAttempt } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Loading, Notice, PageHeader } from '../../components/Feedback';
import { useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { DeliveryStatusBadge, KIND_LABELS } from './status';

/** The body as sent, indented when it is JSON (it always is; the raw text otherwise). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * One delivery: the request every attempt sends (the same body and `webhook-id`; each attempt
 * signs it with its own timestamp), then each attempt with the receiver's answer: status,
 * headers and the first 2 KB of its body.
 */
export default function DeliveryPage() {
  const { webhookId = '', deliveryId = '' } = useParams();
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const webhook = useWebhook(webhookId);
  const delivery = useDelivery(webhookId, deliveryId);
  const retry = useApiMutation({
    mutationFn: () => data(api.POST('/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id: webhookId, deliveryId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks') }),
  });
  if (delivery.isPending) return <Loading label="Loading the delivery…" />;
  if (delivery.isError) return <ErrorMessage error={delivery.error} title="Could not load the delivery" />;
  const d = delivery.data;
  return (
    <>
      <PageHeader
        title={`Delivery of ${d.type}`}
        description={
          <>
            {KIND_LABELS[d.kind]}, made {formatDate(d.createdAt)}
          </>
        }
        actions={
          <>
            {d.status !== 'succeeded' && (
              <Button variant="primary" onClick={() => void retry.submit()} pending={retry.isPending} pendingLabel="Retrying…">
                Retry now
              </Button>
            )}
            <Link className="btn" to={projectPath(projectId, 'webhooks', webhookId)}>
              Back to the endpoint
            </Link>
          </>
        }
      />
      <ErrorMessage error={retry.error} title="Could not retry" />
      {retry.isSuccess && !retry.isPending && <Notice>Sent again: the answer shows below as soon as it comes.</Notice>}
      <section className="panel" aria-label="Summary">
        <dl className="dl-grid">
          <dt>Status</dt>
          <dd>
            <DeliveryStatusBadge delivery={{ ...d, attempts: d.attemptCount }} inFlight={d.status === 'pending' && d.attemptCount > d.attempts.length} />
          </dd>
          <dt>Attempts</dt>
          <dd>{d.attemptCount}</dd>
          <dt>Last attempt</dt>
          <dd>{formatDate(d.lastAttemptAt)}</dd>
        </dl>
      </section>
      <section className="panel wh-section" aria-label="Request">
        <h2>Request</h2>
        <pre className="wh-payload">
          {`POST ${webhook.data?.url ?? ''}\ncontent-type: application/json\nwebhook-id: ${d.eventId}\nwebhook-timestamp: (the time of each attempt)\nwebhook-signature: v1,… (signed with the endpoint's secret)`}
        </pre>
        <h3>Body</h3>
        <pre className="wh-payload">{pretty(d.body)}</pre>
      </section>
      <section className="panel wh-section" aria-labelledby="wh-attempts">
        <h2 id="wh-attempts">Attempts</h2>
        {d.attempts.map((a) => (
          <Attempt key={a.attempt} attempt={a} />
        ))}
        {d.status === 'pending' && d.attemptCount > d.attempts.length ? (
          <p className="muted" role="status">
            Attempt {d.attemptCount} is under way: its answer shows here when it comes.
          </p>
        ) : (
          d.attempts.length === 0 && <p className="muted">Not tried yet: the first attempt is on its way.</p>
        )}
      </section>
    </>
  );
}

function Attempt({ attempt }: { attempt: WebhookAttempt }) {
  const headers = Object.entries(attempt.responseHeaders ?? {});
  return (
    <article className="wh-attempt" aria-label={`Attempt ${attempt.attempt}`}>
      <h3>
        Attempt {attempt.attempt}: {attempt.responseStatus !== null ? `HTTP ${attempt.responseStatus}` : 'no answer'}
      </h3>
      <p className="muted">
        {formatDate(attempt.attemptedAt)}, {attempt.durationMs} ms
      </p>
      {attempt.error && <p className="field-error">{attempt.error}</p>}
      {headers.length > 0 && (
        <details>
          <summary>Response headers ({headers.length})</summary>
          <pre className="wh-payload">{headers.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
        </details>
      )}
      <h4>Response body (first 2 KB)</h4>
      <pre className="wh-payload">{attempt.responseBody || '(empty)'}</pre>
    </article>
  );
}
