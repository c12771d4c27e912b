import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { data } from '../../api/client';
import { type BulkOperation, isJobFinished, useBulkJob } from '../../api/contacts';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/Feedback';
import { useApiMutation } from '../../lib/forms';
import { useApi, useProjectId } from '../../lib/project';
import { DataTable } from '../../components/DataTable';

const LABELS: Record<BulkOperation, { verb: string; doing: string; done: string }> = {
  subscribe: { verb: 'Subscribe', doing: 'Subscribing', done: 'subscribed' },
  unsubscribe: { verb: 'Unsubscribe', doing: 'Unsubscribing', done: 'unsubscribed' },
  delete: { verb: 'Delete', doing: 'Deleting', done: 'deleted' },
};

/** Bulk subscribe / unsubscribe / delete of the selected contacts (≤ 1,000), with the job's progress. */
export function BulkActions({ selected, onFinished, onDismiss }: { selected: string[]; onFinished: () => void; onDismiss: () => void }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [job, setJob] = useState<{ id: string; operation: BulkOperation } | null>(null);
  const start = useApiMutation({
    mutationFn: ({ operation, ids }: { operation: BulkOperation; ids: string[] }) => data(api.POST(`/contacts/bulk-${operation}`, { body: { contactIds: ids } })),
    onSuccess: (answer, vars) => {
      if (answer.jobId) setJob({ id: answer.jobId, operation: vars.operation });
    },
  });
  const status = useBulkJob(job?.id);
  const finished = isJobFinished(status.data);
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
    onFinished();
  }, [finished, onFinished, projectId, queryClient]);

  const run = (operation: BulkOperation) => start.submit({ operation, ids: selected.slice(0, 1000) });
  const busy = start.isPending || (job !== null && !finished);
  const result = status.data;
  return (
    <section className="panel" aria-label="Bulk actions">
      <div className="button-row">
        <strong>{selected.length.toLocaleString()} selected</strong>
        <Button onClick={() => run('subscribe')} disabled={busy || selected.length === 0}>
          Subscribe
        </Button>
        <Button onClick={() => run('unsubscribe')} disabled={busy || selected.length === 0}>
          Unsubscribe
        </Button>
        <ConfirmButton
          label="Delete"
          title={`Delete ${selected.length} contact${selected.length === 1 ? '' : 's'}?`}
          description="They and their events are removed for good. This cannot be undone."
          confirmLabel="Delete contacts"
          disabled={busy || selected.length === 0}
          onConfirm={() => start.mutateAsync({ operation: 'delete', ids: selected.slice(0, 1000) })}
        />
        {selected.length > 1000 && <span className="muted">Only the first 1,000 are changed at once.</span>}
      </div>
      <ErrorMessage error={start.error} title="Could not start" />
      {job && result && (
        <div aria-live="polite">
          <ProgressBar
            label={`${LABELS[job.operation].doing} ${result.totalRequested.toLocaleString()} contacts`}
            value={result.progress}
            detail={`${result.successCount} ${LABELS[job.operation].done}, ${result.unchangedCount} unchanged, ${result.failureCount} failed`}
          />
          {result.status === 'failed' && <p className="field-error">The job failed. Try again; contacts already changed stay changed.</p>}
          {finished && result.errors.length > 0 && (
            <DataTable caption="Contacts that could not be changed" columns={['Contact', 'Problem']}>
              {result.errors.map((e) => (
                <tr key={e.contactId}>
                  <td>
                    <code>{e.contactId}</code>
                  </td>
                  <td>{e.error === 'not_found' ? 'Not found (deleted, or not in this project)' : e.error === 'invalid_id' ? 'Not a contact id' : e.error}</td>
                </tr>
              ))}
            </DataTable>
          )}
          {finished && (
            <div className="button-row">
              <p role="status">
                Done: {result.successCount.toLocaleString()} {LABELS[job.operation].done}.
              </p>
              <Button
                className="btn-small"
                onClick={() => {
                  setJob(null);
                  start.reset();
                  if (selected.length === 0) onDismiss();
                }}
              >
                Dismiss
              </Button>
            </div>
          )}
        </div>
      )}
      {job && !result && status.isError && <ErrorMessage error={status.error} title="Could not read the job's progress" />}
    </section>
  );
}
