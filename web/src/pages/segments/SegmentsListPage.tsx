import { Link } from 'react-router';
import { useSegments } from '../../api/segments';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, EmptyState, Loading, PageHeader } from '../../components/Feedback';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';

export default function SegmentsListPage() {
  const projectId = useProjectId();
  const list = useSegments();
  const newButton = (
    <Link className="btn btn-primary" to={projectPath(projectId, 'segments', 'new')}>
      New segment
    </Link>
  );
  return (
    <>
      <PageHeader title="Segments" description="Groups of contacts chosen by filters (dynamic) or by hand (static), for campaigns and workflows." actions={newButton} />
      {list.isPending ? (
        <Loading label="Loading segments…" />
      ) : list.isError ? (
        <>
          <ErrorMessage error={list.error} title="Could not load segments" />
          <Button onClick={() => list.refetch()}>Try again</Button>
        </>
      ) : list.data.length === 0 ? (
        <EmptyState title="No segments yet" action={newButton}>
          <p>Build one with filters (say, contacts whose plan is "pro" who signed up in the last 30 days), or make a static list and add addresses by hand. Then send a campaign to it.</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Segments</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Members</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link className="row-link" to={projectPath(projectId, 'segments', s.id)}>
                      {s.name}
                    </Link>
                    {s.description && <div className="muted">{s.description}</div>}
                  </td>
                  <td>
                    <Badge tone={s.type === 'STATIC' ? 'neutral' : 'info'}>{s.type.toLowerCase()}</Badge> {s.trackMembership && <Badge tone="good">entry/exit events</Badge>}
                  </td>
                  <td>{formatNumber(s.memberCount)}</td>
                  <td>{formatDate(s.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
