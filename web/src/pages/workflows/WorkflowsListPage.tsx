import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useEventNames } from '../../api/segments';
import type { components } from '../../api/schema';
import { useWorkflowList, type Workflow } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { Badge, EmptyState, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { DataTable, NameCell } from '../../components/DataTable';

type CreateWorkflowBody = components['schemas']['CreateWorkflowDto'];

export default function WorkflowsListPage() {
  const projectId = useProjectId();
  const [page, setPage] = useState(1);
  const list = useWorkflowList(page);
  return (
    <>
      <PageHeader title="Workflows" description="Steps that run per contact when an event happens: emails, delays, conditions, webhooks." />
      <NewWorkflowForm />
      <QueryView query={list} title="Could not load workflows" loadingLabel="Loading workflows…">
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="No workflows yet">
              <p>Create one above with the event that starts it (for example "signup", sent with POST /v1/track), then add steps in the graph and enable it.</p>
            </EmptyState>
          ) : (
            <>
              <DataTable caption="Workflows" columns={['Name', 'Trigger', 'State', 'Steps', 'Changed']}>
                {data.data.map((w: Workflow) => (
                  <tr key={w.id}>
                    <NameCell to={projectPath(projectId, 'workflows', w.id)} name={w.name} detail={w.description} />
                    <td>
                      <code>{w.triggerConfig?.eventName}</code>
                    </td>
                    <td>{w.enabled ? <Badge tone="good">enabled</Badge> : <Badge>disabled</Badge>}</td>
                    <td>{w.steps?.length ?? '—'}</td>
                    <td>{formatDate(w.updatedAt)}</td>
                  </tr>
                ))}
              </DataTable>
              <Pager page={data.page} totalPages={data.totalPages} total={data.total} onPage={setPage} busy={list.isFetching} />
            </>
          )
        }
      </QueryView>
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
    mutationFn: (body: CreateWorkflowBody) => data(api.POST('/workflows', { body })),
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
