import { useQuery } from '@tanstack/react-query';
import { accountApi, useProject } from '../../api/account';
import { AUDIT_ACTION_LABELS, type AuditAction, type AuditEntry, type AuditFilters, useAuditLog } from '../../api/audit';
import { qk } from '../../api/queryKeys';
import type { Project } from '../../api/types';
import { CursorListView } from '../../components/CursorListView';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/Feedback';
import { TextField } from '../../components/Fields';
import { FilterSelect } from '../../components/ListToolbar';
import { QueryView } from '../../components/QueryView';
import { formatDate, localToIso } from '../../lib/format';
import { useProjectId } from '../../lib/project';
import { useUrlParams } from '../../lib/useUrlParams';

const ACTION_OPTIONS = (Object.keys(AUDIT_ACTION_LABELS) as AuditAction[]).map((value) => ({ value, label: AUDIT_ACTION_LABELS[value] }));

const TARGET_LABELS: Record<AuditEntry['target']['type'], string> = {
  project: 'Project',
  user: 'Member',
  domain: 'Domain',
  webhook: 'Webhook',
  campaign: 'Campaign',
  contact: 'Contact',
  contact_export: 'Export',
};

/** Who did it: a member by their address, or the secret key by its first characters. */
export function actorLabel(actor: AuditEntry['actor']): string {
  return actor.type === 'key' ? `Secret key ${actor.id}…` : (actor.email ?? actor.id);
}

/** The URL's filters as the API's: days in the user's own time zone, `to` through the end of its day. */
export function filtersOf(params: URLSearchParams): AuditFilters {
  const action = params.get('action') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    action: action in AUDIT_ACTION_LABELS ? (action as AuditAction) : undefined,
    actorId: params.get('actor') || undefined,
    from: from ? localToIso(`${from}T00:00`) : undefined,
    to: to ? localToIso(`${to}T23:59:59.999`) : undefined,
  };
}

/** The log with its filters (actor, action, days), kept in the URL; older pages on demand. */
export function AuditLog({ project }: { project: Project }) {
  const [params, setParams] = useUrlParams();
  const filters = filtersOf(params);
  const log = useAuditLog(filters);
  const members = useQuery({ queryKey: qk.p(project.id, 'members'), queryFn: () => accountApi.members(project.id) });
  const actors = [...(members.data ?? []).map((m) => ({ value: m.userId, label: m.email })), { value: project.secretPrefix, label: `Secret key ${project.secretPrefix}…` }];
  const total = log.data?.pages[0]?.total;
  const filtered = Boolean(filters.action || filters.actorId || filters.from || filters.to);
  return (
    <section className="panel" aria-labelledby="audit-log">
      <h2 id="audit-log">Audit log</h2>
      <p>Who changed the project's settings, keys, members, domains and webhooks, and who sent or cancelled campaigns, from which address. Entries are kept for a year.</p>
      <div className="toolbar" role="search">
        <FilterSelect label="Who" value={filters.actorId ?? ''} allLabel="Anyone" options={actors} onChange={(value) => setParams({ actor: value })} />
        <FilterSelect label="Action" value={filters.action ?? ''} allLabel="Every action" options={ACTION_OPTIONS} onChange={(value) => setParams({ action: value })} />
        <TextField label="From" type="date" value={params.get('from') ?? ''} onChange={(e) => setParams({ from: e.target.value })} />
        <TextField label="To" type="date" value={params.get('to') ?? ''} onChange={(e) => setParams({ to: e.target.value })} />
        {total !== undefined && <p className="muted">{total.toLocaleString()} in all</p>}
      </div>
      <CursorListView
        query={log}
        loadingLabel="Loading the audit log…"
        errorTitle="Could not load the audit log"
        empty={
          <EmptyState title={filtered ? 'Nothing matches these filters' : 'Nothing recorded yet'}>
            <p>{filtered ? 'Clear a filter to see more.' : 'Changes to settings, keys, members, domains, webhooks and campaign sends show up here.'}</p>
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable caption="Audit log" columns={['When', 'Who', 'Action', 'Target', 'Address']}>
            {items.map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.at)}</td>
                <td>{actorLabel(e.actor)}</td>
                <td>
                  {AUDIT_ACTION_LABELS[e.action] ?? e.action}
                  {e.changes && e.changes.length > 0 && <div className="muted">{e.changes.join(', ')}</div>}
                </td>
                <td>
                  {TARGET_LABELS[e.target.type] ?? e.target.type} <code>{e.target.id}</code>
                </td>
                <td>{e.ip ?? '—'}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </section>
  );
}

export default function AuditLogSettings() {
  const projectId = useProjectId();
  const project = useProject(projectId);
  return (
    <QueryView query={project}>
      {(p) => (p.role === 'MEMBER' ? <p className="banner banner-info">Only owners and admins see the audit log.</p> : <AuditLog project={p} />)}
    </QueryView>
  );
}
