import { Link } from 'react-router';
import { useWebhooks, type Webhook } from '../../api/webhooks';
import { DataTable, NameCell } from '../../components/DataTable';
import { EmptyState, PageHeader } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formatDate } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { describeEvents } from './events';
import { EndpointStatus, LastDelivery } from './status';

export const MAX_ENDPOINTS = 20;

export default function WebhooksListPage() {
  const projectId = useProjectId();
  const list = useWebhooks();
  const full = (list.data?.length ?? 0) >= MAX_ENDPOINTS;
  const add = (
    <Link className="btn btn-primary" to={projectPath(projectId, 'webhooks', 'new')} aria-disabled={full || undefined} onClick={(e) => full && e.preventDefault()}>
      Add endpoint
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your own servers hear about what happens as it happens: a bounce, an unsubscribe, a tracked purchase. Each request is signed, retried until it succeeds, and logged."
        actions={add}
      />
      {full && <p className="banner banner-info">A project has at most {MAX_ENDPOINTS} endpoints: delete one to add another.</p>}
      <QueryView query={list} title="Could not load the endpoints" loadingLabel="Loading endpoints…">
        {(endpoints) =>
          endpoints.length === 0 ? (
            <EmptyState title="No endpoints yet" action={add}>
              <p>Add the URL of a server of yours and pick the events it should receive. You get a signing secret to check that each request comes from Mailroom.</p>
            </EmptyState>
          ) : (
            <DataTable caption="Endpoints" columns={['Endpoint', 'Events', 'Status', 'Last delivery', 'Added']}>
              {endpoints.map((w: Webhook) => (
                <tr key={w.id}>
                  <NameCell to={projectPath(projectId, 'webhooks', w.id)} name={w.url} detail={w.description} />
                  <td>{describeEvents(w.events)}</td>
                  <td>
                    <EndpointStatus webhook={w} />
                  </td>
                  <td>
                    <LastDelivery webhook={w} />
                  </td>
                  <td>{formatDate(w.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </>
  );
}
