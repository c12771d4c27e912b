import { Link } from 'react-router';
import { useUrlParams } from '../../lib/useUrlParams';
import { EMAIL_TYPES, useTemplateList } from '../../api/templates';
import type { EmailType } from '../../api/types';
import { FilterSelect, ListToolbar, useListSearch } from '../../components/ListToolbar';
import { Badge, EmptyState, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { formatDate } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { DataTable, NameCell } from '../../components/DataTable';

export default function TemplatesListPage() {
  const projectId = useProjectId();
  const [params, set] = useUrlParams();
  const searchBox = useListSearch(params, set);
  const search = searchBox.search;
  const type = (params.get('type') ?? '') as EmailType | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useTemplateList({ page, search: search || undefined, type, sort: 'updatedAt', dir: 'desc' });
  const newButton = (
    <Link className="btn btn-primary" to={projectPath(projectId, 'templates', 'new')}>
      New template
    </Link>
  );
  return (
    <>
      <PageHeader title="Templates" description="Reusable emails with {{variables}}, for /v1/send, campaigns and workflows." actions={newButton} />
      <ListToolbar search={searchBox} placeholder="Name, description or subject">
        <FilterSelect label="Type" value={type} allLabel="All types" options={EMAIL_TYPES} onChange={(value) => set({ type: value, page: '' })} />
      </ListToolbar>
      <QueryView query={list} title="Could not load templates" loadingLabel="Loading templates…">
        {(data) =>
          data.data.length === 0 ? (
            search || type ? (
              <EmptyState title="No template matches">Change the search or the type.</EmptyState>
            ) : (
              <EmptyState title="No templates yet" action={newButton}>
                <p>Write an email once, with placeholders like {'{{firstName}}'}, and send it with POST /v1/send, a campaign or a workflow.</p>
              </EmptyState>
            )
          ) : (
            <>
              <DataTable caption="Templates" columns={['Name', 'Subject', 'Type', 'From', 'Changed']}>
                {data.data.map((t) => (
                  <tr key={t.id}>
                    <NameCell to={projectPath(projectId, 'templates', t.id)} name={t.name} detail={t.description} />
                    <td>{t.subject}</td>
                    <td>
                      <Badge tone={t.type === 'TRANSACTIONAL' ? 'info' : 'neutral'}>{t.type.toLowerCase()}</Badge>
                    </td>
                    <td>{t.from}</td>
                    <td>{formatDate(t.updatedAt)}</td>
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
