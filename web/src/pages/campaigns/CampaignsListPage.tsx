import { Link } from 'react-router';
import { useUrlParams } from '../../lib/useUrlParams';
import { CAMPAIGN_STATUSES, type CampaignStatus, useCampaignList } from '../../api/campaigns';
import { FilterSelect, ListToolbar, useListSearch } from '../../components/ListToolbar';
import { EmptyState, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { StatusBadge } from './StatusBadge';
import { DataTable, NameCell } from '../../components/DataTable';
import { AudienceCell } from './AudienceCell';

export default function CampaignsListPage() {
  const projectId = useProjectId();
  const [params, set] = useUrlParams();
  const status = (params.get('status') ?? '') as CampaignStatus | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const searchBox = useListSearch(params, set);
  const search = searchBox.search;
  const list = useCampaignList({ page, status, search: search || undefined });
  const newButton = (
    <Link className="btn btn-primary" to={projectPath(projectId, 'campaigns', 'new')}>
      New campaign
    </Link>
  );
  return (
    <>
      <PageHeader title="Campaigns" description="One email to many contacts: all of them, a segment, or those matching filters." actions={newButton} />
      <ListToolbar search={searchBox} placeholder="Name, subject or sender">
        <FilterSelect
          label="Status"
          value={status}
          allLabel="All statuses"
          options={CAMPAIGN_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          onChange={(value) => set({ status: value, page: '' })}
        />
      </ListToolbar>
      <QueryView query={list} title="Could not load campaigns" loadingLabel="Loading campaigns…">
        {(data) =>
          data.data.length === 0 ? (
            status || search ? (
              <EmptyState title={search ? 'No campaign matches' : `No ${status.toLowerCase()} campaigns`}>Change the search, or choose all statuses.</EmptyState>
            ) : (
              <EmptyState title="No campaigns yet" action={newButton}>
                <p>Write the email (or copy a template), choose who gets it, check who would be skipped, then send it now or schedule it.</p>
              </EmptyState>
            )
          ) : (
            <>
              <DataTable caption="Campaigns" columns={['Name', 'Status', 'Audience', 'Sent', 'Opened', 'When']}>
                {data.data.map((c) => (
                  <tr key={c.id}>
                    <NameCell to={projectPath(projectId, 'campaigns', c.id)} name={c.name} detail={c.subject} />
                    <td>
                      <StatusBadge status={c.status} />
                    </td>
                    <AudienceCell campaign={c} />
                    <td>{c.status === 'DRAFT' || c.status === 'SCHEDULED' ? '—' : `${formatNumber(c.sentCount)} / ${formatNumber(c.totalRecipients)}`}</td>
                    <td>{c.status === 'DRAFT' || c.status === 'SCHEDULED' ? '—' : formatNumber(c.openedCount)}</td>
                    <td>{c.status === 'SCHEDULED' ? `at ${formatDate(c.scheduledFor)}` : c.sentAt ? `sent ${formatDate(c.sentAt)}` : `created ${formatDate(c.createdAt)}`}</td>
                  </tr>
                ))}
              </DataTable>
              <Pager page={data.page} totalPages={data.totalPages} total={data.total} onPage={(p) => set({ page: String(p) })} busy={list.isFetching} />
            </>
          )
        }
      </QueryView>
    </>
  );
}
