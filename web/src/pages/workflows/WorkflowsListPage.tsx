import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { qk } from '../../api/queryKeys';
import { useEventNames } from '../../api/segments';
import { useWorkflowList, type Workflow } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { Badge, EmptyState, Loading, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';

export default function WorkflowsListPage() {
  const projectId = useProjectId();
  const [page, setPage] = useState(1);
  const list = useWorkflowList(page);
  return (
    <>
      <PageHeader title="Workflows" description="Steps that run per contact when an event happens: emails, delays, conditions, webhooks." />
      <NewWorkflowForm />
      {list.isPending ? (
        <Loading label="Loading workflows…" />
      ) : list.isError ? (
        <>
          <ErrorMessage error={list.error} title="Could not load workflows" />
          <Button onClick={() => list.refetch()}>Try again</Button>
        </>
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No workflows yet">
          <p>Create one above with the event that starts it (for example "signup", sent with POST /v1/track), then add steps in the graph and enable it.</p>
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Workflows</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">State</th>
                  <th scope="col">Steps</th>
                  <th scope="col">Changed</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((w: Workflow) => (
                  <tr key={w.id}>
                    <td>
                      <Link className="row-link" to={projectPath(projectId, 'workflows', w.id)}>
                        {w.name}
                      </Link>
                      {w.description && <div className="muted">{w.description}</div>}
                    </td>
                    <td>
                      <code>{w.triggerConfig?.eventName}</code>
                    </td>
                    <td>{w.enabled ? <Badge tone="good">enabled</Badge> : <Badge>disabled</Badge>}</td>
                    <td>{w.steps?.length ?? '—'}</td>
                    <td>{formatDate(w.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={list.data.page} totalPages={list.data.totalPages} total={list.data.total} onPage={setPage} busy={list.isFetching} />
        </>
      )}
    </>
  );
}

function NewWorkflowForm() {
  const api = useApi();
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const events = useEventNames();
  const create = useApiMutation({
    mutationFn: (body: { name: string; eventName: string; description?: string; allowReentry: boolean }) => api.post<Workflow>('/workflows', body),
    onSuccess: (w) => {
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows') });
      navigate(projectPath(projectId, 'workflows', w.id));
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void create.submit({ name: String(f.get('name') ?? '').trim(), eventName: String(f.get('eventName') ?? '').trim(), description: String(f.get('description') ?? '').trim() || undefined, allowReentry: f.get('allowReentry') === 'on' });
  };
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-label="New workflow">
      <h2>New workflow</h2>
      <div className="two-columns">
        <TextField label="Workflow name" name="name" required error={fieldError(create.error, 'name')} />
        <TextField label="Trigger event" name="eventName" required list="wf-new-events" placeholder="signup" error={fieldError(create.error, 'eventName')} hint="The event name that starts it for a contact." />
        <datalist id="wf-new-events">
          {(events.data ?? []).map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </div>
      <TextField label="Description" name="description" error={fieldError(create.error, 'description')} />
      <CheckboxField label="Let a contact enter again once its previous run has ended" name="allowReentry" />
      <ErrorMessage error={create.error} fields={['name', 'eventName', 'description']} title="Could not create the workflow" />
      <Button type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
        Create workflow
      </Button>
    </form>
  );
}
