import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ActivityItem } from '../../api/activity';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, EmptyState, Loading } from '../../components/Feedback';
import { formatDate, formatValue } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { buildTimeline, describeEvent, SHOWN_KEYS, type TimelineEntry } from './timeline';

/** The contact's activity (`GET /activity?contactId=`), newest first, older pages on demand. */
function useContactActivity(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'contacts', 'activity', contactId),
    queryFn: ({ pageParam, signal }) => data(api.GET('/activity', { params: { query: { contactId, limit: 50, cursor: pageParam } }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}

function useContactExecutions(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'executions', contactId),
    queryFn: ({ signal }) => data(api.GET('/activity/executions', { params: { query: { contactId } }, signal })),
  });
}

function Details({ item }: { item: ActivityItem }) {
  const rest = Object.entries(item.data ?? {}).filter(([key]) => !SHOWN_KEYS.has(key));
  if (rest.length === 0) return null;
  return (
    <dl className="dl-grid">
      {rest.slice(0, 12).map(([key, value]) => (
        <div key={key} style={{ display: 'contents' }}>
          <dt>{key}</dt>
          <dd>{formatValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** "from the campaign X" / "made from the template Y", as links (an id when the name is gone). */
function EmailSource({ item }: { item: ActivityItem }) {
  const projectId = useProjectId();
  return (
    <>
      {item.campaignId && (
        <>
          {' '}
          · campaign <Link to={projectPath(projectId, 'campaigns', item.campaignId)}>{item.campaignName ?? item.campaignId}</Link>
        </>
      )}
      {item.templateId && (
        <>
          {' '}
          · template <Link to={projectPath(projectId, 'templates', item.templateId)}>{item.templateName ?? item.templateId}</Link>
        </>
      )}
    </>
  );
}

function Entry({ entry }: { entry: TimelineEntry }) {
  const projectId = useProjectId();
  const time = <time dateTime={entry.at}>{formatDate(entry.at)}</time>;
  if (entry.kind === 'execution') {
    const x = entry.execution;
    return (
      <li>
        <span className="timeline-kind muted">Workflow</span>{' '}
        <Link to={projectPath(projectId, 'workflows', x.workflowId, 'executions', x.id)}>{x.workflowName}</Link> <Badge>{x.status.toLowerCase()}</Badge> {time}
        {x.exitReason && <div className="muted">{x.exitReason}</div>}
      </li>
    );
  }
  const item = entry.item;
  if (entry.kind === 'email') {
    const { outcome } = entry;
    return (
      <li>
        <span className="timeline-kind muted">Email</span> <strong>{item.subject ?? '(no subject)'}</strong> {time}
        <div>
          Sent
          <EmailSource item={item} />{' '}
          {outcome.delivered && <Badge>delivered</Badge>} {outcome.opened && <Badge tone="good">opened</Badge>} {outcome.clicked && <Badge tone="good">clicked</Badge>}
        </div>
        {outcome.links.length > 0 && <div className="muted">Clicked: {outcome.links.join(', ')}</div>}
      </li>
    );
  }
  const isEmail = item.type !== 'event';
  return (
    <li>
      <span className="timeline-kind muted">{isEmail ? 'Email' : 'Event'}</span> <strong>{describeEvent(item)}</strong> {time}
      <div className="muted">
        <code>{item.eventName ?? item.type}</code>
        {isEmail && item.subject && <> · {item.subject}</>}
        {isEmail && <EmailSource item={item} />}
      </div>
      <Details item={item} />
    </li>
  );
}

/**
 * The contact as a person's story: emails (subject, campaign or template, delivered, opened,
 * clicked), events with their data, subscription and consent changes, and workflow executions,
 * newest first; names link to what they name.
 */
export function ContactTimeline({ contactId }: { contactId: string }) {
  const activity = useContactActivity(contactId);
  const executions = useContactExecutions(contactId);
  if (activity.isPending || executions.isPending) return <Loading label="Loading the timeline…" />;
  if (activity.isError) return <ErrorMessage error={activity.error} title="Could not load the activity" />;
  if (executions.isError) return <ErrorMessage error={executions.error} title="Could not load the workflow executions" />;
  const items = activity.data.pages.flatMap((p) => p.data);
  const entries = buildTimeline(items, executions.data.data, !activity.hasNextPage);
  if (entries.length === 0)
    return (
      <EmptyState title="Nothing yet">
        Emails sent to this contact, opens, clicks, subscription changes, workflow runs and events you track with POST /v1/track appear here.
      </EmptyState>
    );
  return (
    <>
      <ol className="timeline" aria-label="Timeline, newest first">
        {entries.map((entry) => (
          <Entry key={entry.kind === 'execution' ? `x-${entry.execution.id}` : entry.item.id} entry={entry} />
        ))}
      </ol>
      {activity.hasNextPage && (
        <Button onClick={() => activity.fetchNextPage()} pending={activity.isFetchingNextPage} pendingLabel="Loading…">
          Load older activity
        </Button>
      )}
    </>
  );
}
