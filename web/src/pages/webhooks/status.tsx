import type { DeliveryStatus, Webhook, WebhookDelivery } from '../../api/webhooks';
import { Badge } from '../../components/Feedback';
import { formatDate } from '../../lib/format';

/** An endpoint's state in words: enabled, turned off by hand, or turned off by the service (and why). */
export function EndpointStatus({ webhook }: { webhook: Pick<Webhook, 'enabled' | 'disabledReason'> }) {
  if (webhook.enabled) return <Badge tone="good">Enabled</Badge>;
  if (webhook.disabledReason === 'GONE') return <Badge tone="bad">Disabled: the endpoint answered 410 Gone</Badge>;
  if (webhook.disabledReason === 'FAILING') return <Badge tone="bad">Disabled: failing for 5 days</Badge>;
  return <Badge>Disabled</Badge>;
}

/** What made a delivery. */
export const KIND_LABELS: Record<WebhookDelivery['kind'], string> = { event: 'An event', replay: 'A replay', test: 'A test' };

const LABELS: Record<DeliveryStatus, string> = { pending: 'pending', succeeded: 'succeeded', failed: 'failed' };

/**
 * Whether a list item's attempt is under way: counted as soon as it starts, but with no answer and
 * no error yet (a finished attempt always leaves one of them). Only the first attempt can be told
 * from the list; the delivery's page knows for each (more attempts counted than recorded).
 */
export function firstAttemptInFlight(d: Pick<WebhookDelivery, 'status' | 'attempts' | 'responseStatus' | 'error'>): boolean {
  return d.status === 'pending' && d.attempts > 0 && d.responseStatus === null && d.error === null;
}

/** A delivery's status; a pending one is being sent, or was tried and says when it tries again. */
export function DeliveryStatusBadge({ delivery, inFlight }: { delivery: Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt'>; inFlight: boolean }) {
  const tone = delivery.status === 'succeeded' ? 'good' : delivery.status === 'failed' ? 'bad' : delivery.attempts > 0 && !inFlight ? 'warn' : 'info';
  return (
    <>
      <Badge tone={tone}>{LABELS[delivery.status]}</Badge>
      {delivery.status === 'pending' && (
        <div className="muted">{inFlight ? 'being sent now' : delivery.attempts > 0 ? `retrying, next attempt ${formatDate(delivery.nextAttemptAt)}` : 'about to be sent'}</div>
      )}
    </>
  );
}

/** The receiver's answer of the last attempt: its HTTP status and time, or the error (timeout, refused). */
export function ResponseSummary({ delivery }: { delivery: Pick<WebhookDelivery, 'responseStatus' | 'durationMs' | 'error'> }) {
  return (
    <>
      {delivery.responseStatus !== null && delivery.responseStatus !== undefined ? <span>HTTP {delivery.responseStatus}</span> : <span className="muted">no answer</span>}
      {delivery.durationMs !== null && delivery.durationMs !== undefined && <span className="muted"> in {delivery.durationMs} ms</span>}
      {delivery.error && <div className="field-error">{delivery.error}</div>}
    </>
  );
}

/** The newest delivery of an endpoint: its status and when, or that there was none. */
export function LastDelivery({ webhook }: { webhook: Pick<Webhook, 'lastDeliveryAt' | 'lastDeliveryStatus'> }) {
  if (!webhook.lastDeliveryStatus) return <span className="muted">None yet</span>;
  const tone = webhook.lastDeliveryStatus === 'succeeded' ? 'good' : webhook.lastDeliveryStatus === 'failed' ? 'bad' : 'info';
  return (
    <>
      <Badge tone={tone}>{LABELS[webhook.lastDeliveryStatus]}</Badge>
      <div className="muted">{formatDate(webhook.lastDeliveryAt)}</div>
    </>
  );
}
