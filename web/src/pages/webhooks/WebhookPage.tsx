import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { type UpdateWebhookBody, useWebhook, type Webhook } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { Loading, Notice, PageHeader } from '../../components/Feedback';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { Deliveries } from './Deliveries';
import { SecretReveal } from './SecretReveal';
import { EndpointStatus, ResponseSummary } from './status';
import { WebhookForm } from './WebhookForm';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export default function WebhookPage() {
  const { webhookId = '' } = useParams();
  const webhook = useWebhook(webhookId);
  if (webhook.isPending) return <Loading label="Loading the endpoint…" />;
  if (webhook.isError) return <ErrorMessage error={webhook.error} title="Could not load the endpoint" />;
  return <WebhookView webhook={webhook.data} />;
}

function WebhookView({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = { id: webhook.id };
  const refresh = () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks') });
  // A rotated secret lives in this component's state only: gone when the page is left.
  const [rotated, setRotated] = useState<string | null>(null);
  const toggle = useApiMutation({ mutationFn: (enabled: boolean) => data(api.PATCH('/webhooks/{id}', { params: { path }, body: { enabled } })), onSuccess: refresh });
  const test = useApiMutation({ mutationFn: () => data(api.POST('/webhooks/{id}/test', { params: { path } })), onSuccess: refresh });
  return (
    <>
      <PageHeader
        title={webhook.description || hostOf(webhook.url)}
        description={
          <>
            <code>{webhook.url}</code> <EndpointStatus webhook={webhook} />
          </>
        }
        actions={
          <>
            <Button onClick={() => void test.submit()} pending={test.isPending} pendingLabel="Sending a test…">
              Send test event
            </Button>
            <Button variant={webhook.enabled ? 'secondary' : 'primary'} onClick={() => void toggle.submit(!webhook.enabled)} pending={toggle.isPending} pendingLabel="Saving…">
              {webhook.enabled ? 'Disable' : 'Enable'}
            </Button>
            <ConfirmButton
              label="Rotate secret"
              variant="primary"
              title="Rotate the signing secret?"
              description="A new secret is made and shown once. For 24 hours both secrets sign each request, so your receiver can switch without missing one."
              confirmLabel="Rotate now"
              onConfirm={async () => {
                const answer = await data(api.POST('/webhooks/{id}/rotate-secret', { params: { path } }));
                setRotated(answer.secret);
                await refresh();
              }}
            />
            <ConfirmButton
              label="Delete"
              doneMessage="Endpoint deleted."
              title="Delete this endpoint?"
              description={
                <>
                  <code>{webhook.url}</code> stops receiving events at once, and its delivery log is deleted with it.
                </>
              }
              confirmLabel="Delete endpoint"
              onConfirm={async () => {
                await data(api.DELETE('/webhooks/{id}', { params: { path } }));
                queryClient.removeQueries({ queryKey: qk.p(projectId, 'webhooks', 'one', webhook.id) });
                await refresh();
                navigate(projectPath(projectId, 'webhooks'));
              }}
            />
          </>
        }
      />
      <p>
        <Link to={projectPath(projectId, 'webhooks')}>All endpoints</Link>
      </p>
      <ErrorMessage error={toggle.error} title={webhook.enabled ? 'Could not disable' : 'Could not enable'} />
      <ErrorMessage error={test.error} title="Could not send the test event" />
      {!webhook.enabled && webhook.disabledReason && (
        <p className="banner banner-bad">
          {webhook.disabledReason === 'GONE'
            ? 'Mailroom turned this endpoint off because it answered 410 Gone.'
            : 'Mailroom turned this endpoint off because every delivery failed for 5 days; the project owners were emailed.'}{' '}
          Enable it once the receiver works again: it gets the events that happen from then on (replay a time window for the ones it missed).
        </p>
      )}
      {test.data && !test.isPending && (
        <Notice>
          {test.data.status === 'succeeded' ? 'Test event delivered: ' : 'Test event failed: '}
          <ResponseSummary delivery={test.data} /> <Link to={projectPath(projectId, 'webhooks', webhook.id, 'deliveries', test.data.deliveryId)}>See the delivery</Link>
        </Notice>
      )}
      {webhook.enabled && webhook.failingSince && (
        <p className="banner banner-warn">
          Every delivery failed since {formatDate(webhook.failingSince)}
          {webhook.lastSuccessAt ? ` (last success ${formatDate(webhook.lastSuccessAt)})` : ''}. After 5 days without a success the endpoint is turned off and the project owners are emailed.
        </p>
      )}
      {webhook.previousSecretExpiresAt && !rotated && (
        <p className="banner banner-info">The secret before the last rotation still signs each request until {formatDate(webhook.previousSecretExpiresAt)}.</p>
      )}
      {rotated && <SecretReveal secret={rotated} rotated />}
      <details className="panel">
        <summary>Endpoint settings</summary>
        <Settings webhook={webhook} />
      </details>
      <details className="panel">
        <summary>Send past events again</summary>
        <Replay webhook={webhook} />
      </details>
      <Deliveries webhook={webhook} />
      <p className="muted">
        Added {formatDate(webhook.createdAt)}, changed {formatDate(webhook.updatedAt)}. Deliveries are kept 30 days.
      </p>
    </>
  );
}

function Settings({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const save = useApiMutation({
    mutationFn: (body: UpdateWebhookBody) => data(api.PATCH('/webhooks/{id}', { params: { path: { id: webhook.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks') }),
  });
  return (
    <>
      <WebhookForm
        initial={webhook}
        creating={false}
        error={save.error}
        pending={save.isPending}
        submitLabel="Save"
        pendingLabel="Saving…"
        onSubmit={({ url, description, events }) => void save.submit({ url, description, events })}
      />
      {save.isSuccess && !save.isPending && <Notice>Saved.</Notice>}
    </>
  );
}

/** `datetime-local` gives the user's local time without a zone; the API wants an instant. */
function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

function Replay({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const replay = useApiMutation({
    mutationFn: (body: { since: string; until?: string }) => data(api.POST('/webhooks/{id}/replay', { params: { path: { id: webhook.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks', 'deliveries', webhook.id) }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void replay.submit({ since: toIso(String(f.get('since') ?? '')) ?? '', until: toIso(String(f.get('until') ?? '')) });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Replay events">
      <p>Every event this endpoint subscribes to that happened in the window is sent again (at most 7 days back). Receivers tell repeats apart by the <code>webhook-id</code> header.</p>
      <div className="two-columns">
        <TextField label="From" name="since" type="datetime-local" required error={fieldError(replay.error, 'since')} />
        <TextField label="Until (optional)" name="until" type="datetime-local" hint="Empty: up to now." error={fieldError(replay.error, 'until')} />
      </div>
      <ErrorMessage error={replay.error} fields={['since', 'until']} title="Could not replay" />
      <Button type="submit" pending={replay.isPending} pendingLabel="Queueing…">
        Replay events
      </Button>
      {replay.data && !replay.isPending && (
        <Notice>
          {replay.data.queued === 0 ? 'No matching event in that window.' : `${replay.data.queued.toLocaleString()} event${replay.data.queued === 1 ? '' : 's'} queued to be sent again.`}
        </Notice>
      )}
    </form>
  );
}
