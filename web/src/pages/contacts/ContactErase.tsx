import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { data } from '../../api/client';
import { ERASURE_STATUS_LABELS, useErasure } from '../../api/erasures';
import { qk } from '../../api/queryKeys';
import type { Contact } from '../../api/types';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { projectPath, useApi, useProjectId } from '../../lib/project';

/** What an erasure does, said before it is confirmed. */
export const ERASURE_EXPLAINED = (
  <>
    <p>This answers a request to be forgotten. Deleted for good:</p>
    <ul>
      <li>the contact, its data and topic choices,</li>
      <li>its events (consent history included),</li>
      <li>its workflow executions,</li>
      <li>its segment memberships,</li>
      <li>the mail it sent in.</li>
    </ul>
    <p>
      Its emails stay in the statistics, anonymised: no address, no content. The address is kept only as a one-way hash, so that if it comes back (an import, a tracked event, a send)
      it starts unsubscribed and receives no marketing mail until it subscribes again itself. This cannot be undone.
    </p>
  </>
);

/** "Erase": the contact's erasure (`POST /contacts/:id/erase`) behind a confirmation, then its progress. For owners and admins. */
export function EraseContactButton({ contact }: { contact: Pick<Contact, 'id' | 'email'> }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  if (jobId) return <ErasureProgress jobId={jobId} />;
  return (
    <ConfirmButton
      label="Erase"
      title={`Erase ${contact.email} and everything held about them?`}
      description={ERASURE_EXPLAINED}
      confirmLabel="Erase for good"
      onConfirm={async () => {
        const queued = await data(api.POST('/contacts/{id}/erase', { params: { path: { id: contact.id } } }));
        setJobId(queued.jobId);
        await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'erasures') });
      }}
    />
  );
}

/** The erasure's status as it goes, announced politely to screen readers. */
export function ErasureProgress({ jobId }: { jobId: string }) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const erasure = useErasure(jobId);
  const status = erasure.data?.status;
  if (status === 'completed') void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
  return (
    <div className="erasure-progress">
      <p role="status" aria-live="polite">
        {status === undefined ? 'Erasure requested…' : status === 'completed' ? 'Erased: the contact and its personal data are gone.' : status === 'failed' ? 'The erasure failed; ask again to resume it.' : `${ERASURE_STATUS_LABELS[status]}…`}
      </p>
      <ErrorMessage error={erasure.error} title="Could not read the erasure's progress" />
      {status === 'completed' && (
        <Link to={projectPath(projectId, 'contacts')} className="btn btn-ghost">
          ← All contacts
        </Link>
      )}
    </div>
  );
}
