import { Link } from 'react-router';
import { useSegments } from '../../api/segments';
import { Badge, EmptyState, PageHeader } from '../../components/Feedback';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { QueryView } from '../../components/QueryView';
import { DataTable, NameCell } from '../../components/DataTable';

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
      <QueryView query={list} title="Could not load segments" loadingLabel="Loading segments…">
        {(data) =>
          data.length === 0 ? (
            <EmptyState title="No segments yet" action={newButton}>
              <p>Build one with filters (say, contacts whose plan is "pro" who signed up in the last 30 days), or make a static list and add addresses by hand. Then send a campaign to it.</p>
            </EmptyState>
          ) : (
            <DataTable caption="Segments" columns={['Name', 'Type', 'Members', 'Changed']}>
              {data.map((s) => (
                <tr key={s.id}>
                  <NameCell to={projectPath(projectId, 'segments', s.id)} name={s.name} detail={s.description} />
                  <td>
                    <Badge tone={s.type === 'STATIC' ? 'neutral' : 'info'}>{s.type.toLowerCase()}</Badge> {s.trackMembership && <Badge tone="good">entry/exit events</Badge>}
                  </td>
                  <td>{formatNumber(s.memberCount)}</td>
                  <td>{formatDate(s.updatedAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </>
  );
}
