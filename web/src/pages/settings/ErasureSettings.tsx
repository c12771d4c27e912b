import { useProject } from '../../api/account';
import { ERASURE_STATUS_LABELS, type ErasureListItem, useErasures } from '../../api/erasures';
import { CursorListView } from '../../components/CursorListView';
import { DataTable } from '../../components/DataTable';
import { Badge, EmptyState } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formatDate } from '../../lib/format';
import { useProjectId } from '../../lib/project';

const TONES: Record<ErasureListItem['status'], 'neutral' | 'good' | 'bad' | 'info'> = { queued: 'neutral', running: 'info', completed: 'good', failed: 'bad' };

/** Who asked: a member by id (the list never names addresses), or the secret key by its first characters. */
const requester = (by: ErasureListItem['requestedBy']): string => (by.type === 'key' ? `Secret key ${by.id}…` : `Member ${by.id}`);

/** The project's erasures, newest first: contact ids only, never an address. */
export function ErasureList() {
  const list = useErasures();
  return (
    <section className="panel" aria-labelledby="erasures">
      <h2 id="erasures">Erasures</h2>
      <p>Contacts erased at their request ("forget me"), from a contact's page or the API. Only the contact's id is shown: its address is not kept.</p>
      <CursorListView
        query={list}
        loadingLabel="Loading the erasures…"
        errorTitle="Could not load the erasures"
        empty={
          <EmptyState title="No erasures yet">
            <p>Erase a contact from its page (Erase) to answer a request to be forgotten.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable caption="Erasures" columns={['Requested', 'Contact', 'Status', 'Completed', 'Requested by']}>
            {items.map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.requestedAt)}</td>
                <td>
                  <code>{e.contactId}</code>
                </td>
                <td>
                  <Badge tone={TONES[e.status]}>{ERASURE_STATUS_LABELS[e.status]}</Badge>
                </td>
                <td>{e.completedAt ? formatDate(e.completedAt) : '—'}</td>
                <td>{requester(e.requestedBy)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </section>
  );
}

export default function ErasureSettings() {
  const projectId = useProjectId();
  const project = useProject(projectId);
  return <QueryView query={project}>{(p) => (p.role === 'MEMBER' ? <p className="banner banner-info">Only owners and admins see and make erasures.</p> : <ErasureList />)}</QueryView>;
}
