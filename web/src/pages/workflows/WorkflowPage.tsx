import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, useNavigate, useParams } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import type { components } from '../../api/schema';
import { ApiError } from '../../api/errors';
import { useContactList } from '../../api/contacts';
import { ACTIVE, type ExecutionStatus, useExecutions, useWorkflow, type Workflow } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, SelectField, TextField } from '../../components/Fields';
import { Badge, EmptyState, Loading, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { DataTable } from '../../components/DataTable';
import { executionTone, stepNameOf, WaitingNote } from './executionParts';

type UpdateWorkflowBody = components['schemas']['UpdateWorkflowDto'];

// @xyflow/react is heavy: the graph editor is its own chunk.
const WorkflowEditor = lazy(() => import('./WorkflowEditor'));

const STATUSES: ExecutionStatus[] = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'];

export default function WorkflowPage({ tab }: { tab: 'graph' | 'executions' }) {
  const { workflowId = '' } = useParams();
  const workflow = useWorkflow(workflowId);
  if (workflow.isPending) return <Loading label="Loading the workflow…" />;
  if (workflow.isError) return <ErrorMessage error={workflow.error} title="Could not load the workflow" />;
  return <WorkflowView workflow={workflow.data} tab={tab} />;
}

function WorkflowView({ workflow, tab }: { workflow: Workflow; tab: 'graph' | 'executions' }) {
  const api = useApi();
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toggle = useApiMutation({
    mutationFn: (enabled: boolean) => data(api.PATCH('/workflows/{id}', { params: { path: { id: workflow.id } }, body: { enabled } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows') }),
  });
  const base = projectPath(projectId, 'workflows', workflow.id);
  return (
    <>
      <PageHeader
        title={workflow.name}
        description={
          <>
            {workflow.enabled ? <Badge tone="good">enabled</Badge> : <Badge>disabled</Badge>} Starts when a contact triggers <code>{workflow.triggerConfig.eventName}</code>
            {workflow.allowReentry ? ' (again after each run ends)' : ' (once per contact)'}.
          </>
        }
        actions={
          <>
            <Button variant={workflow.enabled ? 'secondary' : 'primary'} onClick={() => void toggle.submit(!workflow.enabled)} pending={toggle.isPending} pendingLabel="Saving…">
              {workflow.enabled ? 'Disable' : 'Enable'}
            </Button>
            <ConfirmButton
              label="Delete"
              doneMessage="Workflow deleted."
              title={`Delete ${workflow.name}?`}
              description="Active executions must be cancelled first (Executions tab)."
              confirmLabel="Delete workflow"
              onConfirm={async () => {
                await data(api.DELETE('/workflows/{id}', { params: { path: { id: workflow.id } } }));
                await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows') });
                navigate(projectPath(projectId, 'workflows'));
              }}
            />
          </>
        }
      />
      <ErrorMessage error={toggle.error} title={workflow.enabled ? 'Could not disable' : 'Could not enable'} />
      <WorkflowSettings workflow={workflow} />
      <nav className="tabs" aria-label="Workflow">
        <NavLink to={base} end>
          Graph
        </NavLink>
        <NavLink to={`${base}/executions`}>Executions</NavLink>
      </nav>
      {tab === 'graph' ? (
        <Suspense fallback={<Loading label="Opening the graph editor…" />}>
          <WorkflowEditor workflow={workflow} />
        </Suspense>
      ) : (
        <Executions workflow={workflow} />
      )}
    </>
  );
}

function WorkflowSettings({ workflow }: { workflow: Workflow }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const save = useApiMutation({
    mutationFn: (body: UpdateWorkflowBody) => data(api.PATCH('/workflows/{id}', { params: { path: { id: workflow.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows') }),
  });
  return (
    <details className="panel">
      <summary>Name and options</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          void save.submit({ name: String(f.get('name') ?? '').trim(), description: String(f.get('description') ?? '').trim() || null, allowReentry: f.get('allowReentry') === 'on' });
        }}
        noValidate
      >
        <TextField label="Name" name="name" defaultValue={workflow.name} error={fieldError(save.error, 'name')} />
        <TextField label="Description" name="description" defaultValue={workflow.description ?? ''} error={fieldError(save.error, 'description')} />
        <CheckboxField label="Let a contact enter again once its previous run has ended" name="allowReentry" defaultChecked={workflow.allowReentry} />
        <ErrorMessage error={save.error} fields={['name', 'description']} title="Could not save" />
        <Button type="submit" pending={save.isPending} pendingLabel="Saving…">
          Save
        </Button>
        {save.isSuccess && <span role="status"> Saved.</span>}
      </form>
      <p className="muted">The trigger event is set on the Trigger step of the graph.</p>
    </details>
  );
}

function Executions({ workflow }: { workflow: Workflow }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<ExecutionStatus | ''>('');
  const list = useExecutions(workflow.id, page, status);
  const refresh = () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'workflows', 'executions', workflow.id) });
  const [typed, setTyped] = useState('');
  const matches = useContactList({ search: typed.trim() || undefined });
  const start = useApiMutation({
    // The contact is named by its email: found with the contacts search, then started by its id.
    mutationFn: async (email: string) => {
      const found = await data(api.GET('/contacts', { params: { query: { search: email, limit: 10 } } }));
      const contact = found.data.find((c) => c.email.toLowerCase() === email.toLowerCase());
      if (!contact) {
        const message = email ? `No contact has the email ${email}.` : 'Type the email of a contact.';
        throw new ApiError({ status: 422, code: 'VALIDATION_ERROR', message, field: 'contactId', fieldErrors: [{ field: 'contactId', code: 'not_found', message }] });
      }
      return data(api.POST('/workflows/{id}/executions', { params: { path: { id: workflow.id } }, body: { contactId: contact.id } }));
    },
    onSuccess: () => {
      setTyped('');
      void refresh();
    },
  });
  const cancelOne = useApiMutation({ mutationFn: (id: string) => data(api.DELETE('/workflows/{id}/executions/{executionId}', { params: { path: { id: workflow.id, executionId: id } } })), onSuccess: refresh });
  return (
    <>
      <div className="toolbar">
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as ExecutionStatus | ''), setPage(1))}>
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.toLowerCase()}
            </option>
          ))}
        </SelectField>
        <ConfirmButton
          label="Cancel all active"
          doneMessage="Active runs cancelled."
          title="Cancel every active execution?"
          description="Running and waiting executions stop; a cancelled delay or wait never resumes."
          confirmLabel="Cancel them"
          onConfirm={async () => {
            await data(api.POST('/workflows/{id}/executions/cancel-all', { params: { path: { id: workflow.id } } }));
            await refresh();
          }}
        />
      </div>
      <form
        className="toolbar"
        aria-label="Start for a contact"
        onSubmit={(e) => {
          e.preventDefault();
          void start.submit(String(new FormData(e.currentTarget).get('contactEmail') ?? '').trim());
        }}
      >
        <TextField
          label="Start for a contact (email)"
          name="contactEmail"
          type="email"
          list="wf-start-contacts"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          error={fieldError(start.error, 'contactId')}
          hint="Runs even while the workflow is disabled."
        />
        <datalist id="wf-start-contacts">
          {(matches.data?.pages[0]?.data ?? []).map((c) => (
            <option key={c.id} value={c.email} />
          ))}
        </datalist>
        <Button type="submit" pending={start.isPending} pendingLabel="Starting…">
          Start
        </Button>
      </form>
      <ErrorMessage error={start.error} fields={['contactId']} title="Could not start" />
      {list.isPending ? (
        <Loading label="Loading executions…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} title="Could not load executions" />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={status ? `No ${status.toLowerCase()} executions` : 'No executions yet'}>
          {workflow.enabled ? (
            <p>
              It runs when a contact triggers <code>{workflow.triggerConfig.eventName}</code>, e.g. <code>POST /v1/track {`{"event": "${workflow.triggerConfig.eventName}", "email": "…"}`}</code>.
            </p>
          ) : (
            <p>Enable the workflow (button at the top) so that events start it, or start one for a contact above.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <DataTable caption="Executions" columns={['Contact', 'Status', 'Step', 'Started', 'Ended', 'Actions']}>
            {list.data.data.map((x) => {
              const who = x.contactEmail ?? 'a deleted contact';
              return (
                <tr key={x.id}>
                  <td>
                    <Link to={projectPath(projectId, 'contacts', x.contactId)}>{who}</Link>
                  </td>
                  <td>
                    <Badge tone={executionTone(x.status)}>{x.status.toLowerCase()}</Badge>
                    {x.exitReason && <span className="muted"> {x.exitReason}</span>}
                    {x.status === 'WAITING' && (
                      <div className="muted">
                        <WaitingNote execution={x} />
                      </div>
                    )}
                  </td>
                  <td>{stepNameOf(workflow, x.currentStepId)}</td>
                  <td>{formatDate(x.startedAt)}</td>
                  <td>{x.completedAt ? formatDate(x.completedAt) : '—'}</td>
                  <td>
                    <div className="button-row">
                      <Link className="btn" to={projectPath(projectId, 'workflows', workflow.id, 'executions', x.id)} aria-label={`Steps of ${who}'s run`}>
                        Steps
                      </Link>
                      {ACTIVE.includes(x.status) && (
                        <Button onClick={() => void cancelOne.submit(x.id)} aria-label={`Cancel the run of ${who}`}>
                          Cancel
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
          <ErrorMessage error={cancelOne.error} title="Could not cancel" />
          <Pager page={list.data.page} totalPages={list.data.totalPages} total={list.data.total} onPage={setPage} busy={list.isFetching} />
        </>
      )}
    </>
  );
}
