import { Link, useSearchParams } from 'react-router';
import { ACTIVITY_TYPES, useActivity, useActivityStats, useActivityTypes, useUpcoming } from '../../api/activity';
import { CursorListView } from '../../components/CursorListView';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField } from '../../components/Fields';
import { Badge, EmptyState, PageHeader } from '../../components/Feedback';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';
import { DataTable } from '../../components/DataTable';
import { Verdicts } from '../../components/Verdicts';

const LABELS: Record<string, string> = {
  'email.sent': 'sent',
  'email.delivery': 'delivered',
  'email.open': 'opened',
  'email.click': 'clicked',
  'email.bounce': 'bounced',
  'email.complaint': 'complaint',
  'email.received': 'received',
  event: 'event',
};

export default function ActivitySection() {
  const projectId = useProjectId();
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const feed = useActivity(type);
  const types = useActivityTypes();
  const stats = useActivityStats();
  const offered = [...new Set([...ACTIVITY_TYPES, ...(types.data?.types ?? [])])];
  return (
    <>
      <PageHeader title="Activity" description="Everything that happened, newest first: sends, deliveries, opens, clicks, bounces, complaints, inbound mail and tracked events." />
      {stats.data && (
        <p className="muted" aria-label="Last 30 days">
          Last 30 days: {formatNumber(stats.data.sent)} sent · {formatNumber(stats.data.delivered)} delivered · {formatNumber(stats.data.opened)} opened · {formatNumber(stats.data.clicked)} clicked · {formatNumber(stats.data.bounced)} bounced · {formatNumber(stats.data.events)} events
        </p>
      )}
      <Upcoming />
      <div className="toolbar">
        <SelectField label="Type" value={type} onChange={(e) => setParams(e.target.value ? { type: e.target.value } : {}, { replace: true })}>
          <option value="">Everything</option>
          {offered.map((t) => (
            <option key={t} value={t}>
              {LABELS[t] ?? t}
            </option>
          ))}
        </SelectField>
      </div>
      <CursorListView
        query={feed}
        loadingLabel="Loading activity…"
        errorTitle="Could not load activity"
        empty={
          <EmptyState title={type ? 'Nothing of this type yet' : 'No activity yet'}>
            <p>Send an email (a campaign, or POST /v1/send) or track an event with POST /v1/track: it shows up here.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable caption="Activity" columns={['When', 'What', 'Contact', 'Details']}>
            {items.map((a) => (
              <tr key={a.id}>
                <td>{formatDate(a.createdAt)}</td>
                <td>
                  <Badge tone={a.type === 'email.bounce' || a.type === 'email.complaint' ? 'bad' : a.type === 'event' ? 'info' : 'neutral'}>{LABELS[a.type] ?? a.type}</Badge>
                  {a.eventName && <code> {a.eventName}</code>}
                </td>
                <td>{a.contact?.id ? <Link to={projectPath(projectId, 'contacts', a.contact.id)}>{a.contact.email}</Link> : '—'}</td>
                <td>
                  {a.subject && <span>{a.subject}</span>}
                  {a.campaignId && (
                    <>
                      {' '}
                      <Link to={projectPath(projectId, 'campaigns', a.campaignId)}>campaign</Link>
                    </>
                  )}
                  {typeof a.data?.link === 'string' && <span className="muted"> {a.data.link}</span>}
                  {a.type === 'email.received' && (
                    <>
                      {typeof a.data?.from === 'string' && <span className="muted"> from {a.data.from}</span>} <Verdicts data={a.data} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </>
  );
}

function Upcoming() {
  const projectId = useProjectId();
  const upcoming = useUpcoming();
  if (upcoming.isPending) return null;
  if (upcoming.isError) return <ErrorMessage error={upcoming.error} title="Could not load what is coming up" />;
  const { campaigns, executions } = upcoming.data;
  return (
    <section className="panel" aria-label="Coming up">
      <h2>Coming up</h2>
      {campaigns.length === 0 && executions.length === 0 ? (
        <p className="muted">Nothing scheduled: schedule a campaign, or workflows with delays will show their waiting contacts here.</p>
      ) : (
        <ul>
          {campaigns.map((c) => (
            <li key={c.id}>
              {formatDate(c.scheduledFor)}: campaign <Link to={projectPath(projectId, 'campaigns', c.id)}>{c.name}</Link> ({c.subject})
            </li>
          ))}
          {executions.map((x) => (
            <li key={x.id}>
              {x.dueAt ? `${formatDate(x.dueAt)}: workflow step resumes` : 'Waiting for an event'} in{' '}
              <Link to={projectPath(projectId, 'workflows', x.workflowId, 'executions', x.id)}>{x.workflowName}</Link>
              {x.contact && <> for {x.contact.email}</>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
