import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import type { CreatedWebhook, CreateWebhookBody } from '../../api/webhooks';
import { PageHeader } from '../../components/Feedback';
import { useApiMutation } from '../../lib/forms';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { SecretReveal } from './SecretReveal';
import { WebhookForm } from './WebhookForm';

export default function NewWebhookPage() {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  // The answer holds the signing secret: it lives in this component's state only, never in a
  // cache (the mutation keeps the endpoint without it).
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const create = useApiMutation({
    mutationFn: async (body: CreateWebhookBody) => {
      const answer = await data(api.POST('/webhooks', { body }));
      setCreated(answer);
      const { secret: _secret, ...endpoint } = answer;
      return endpoint;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'webhooks') }),
  });
  if (created)
    return (
      <>
        <PageHeader title="Endpoint added" description={<code>{created.url}</code>} />
        <SecretReveal secret={created.secret} />
        <div className="button-row">
          <Link className="btn btn-primary" to={projectPath(projectId, 'webhooks', created.id)}>
            I copied it: open the endpoint
          </Link>
        </div>
      </>
    );
  return (
    <>
      <PageHeader
        title="Add an endpoint"
        actions={
          <Link className="btn" to={projectPath(projectId, 'webhooks')}>
            Back to webhooks
          </Link>
        }
      />
      <section className="panel">
        <WebhookForm creating error={create.error} pending={create.isPending} submitLabel="Add endpoint" pendingLabel="Adding…" onSubmit={(body) => void create.submit(body)} />
      </section>
    </>
  );
}
