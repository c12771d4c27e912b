import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type Campaign, isLive, SKIP_REASONS } from '../../api/campaigns';
import { type CampaignRecipient, RECIPIENT_FILTERS, type RecipientFilter, useCampaignLinks, useCampaignRecipients } from '../../api/campaignResults';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField, TextField } from '../../components/Fields';
import { Badge, EmptyState, Loading } from '../../components/Feedback';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useProjectId } from '../../lib/project';

// recharts is heavy: the chart is its own chunk, loaded when a sent campaign is shown.
const CampaignTimelineChart = lazy(() => import('./CampaignTimelineChart'));

const TONES: Partial<Record<CampaignRecipient['status'], 'good' | 'warn' | 'bad' | 'info'>> = {
  delivered: 'good',
  opened: 'info',
  clicked: 'info',
  bounced: 'bad',
  complained: 'bad',
  failed: 'bad',
  unsubscribed: 'warn',
  uncertain: 'warn',
};

/** What a sent (or sending) campaign did: opens and clicks over time, clicked links, every recipient. */
export function CampaignResults({ campaign }: { campaign: Campaign }) {
  const live = isLive(campaign.status);
  return (
    <>
      <section className="panel" aria-label="Opens and clicks over time">
        <h2>Opens and clicks over time</h2>
        <p>Sent {campaign.sentAt ? formatDate(campaign.sentAt) : '(not yet)'}.</p>
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <CampaignTimelineChart campaignId={campaign.id} live={live} />
        </Suspense>
      </section>
      <LinkClicks campaignId={campaign.id} live={live} />
      <Recipients campaignId={campaign.id} live={live} />
    </>
  );
}

function LinkClicks({ campaignId, live }: { campaignId: string; live: boolean }) {
  const links = useCampaignLinks(campaignId, live);
  return (
    <section className="panel" aria-label="Link clicks">
      <h2>Link clicks</h2>
      {links.isPending ? (
        <Loading label="Loading link clicks…" />
      ) : links.isError ? (
        <ErrorMessage error={links.error} title="Could not load link clicks" />
      ) : links.data.data.length === 0 ? (
        <p className="muted">No link clicked yet. Clicks are counted when click tracking is on for the project.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col">Unique clicks</th>
                <th scope="col">Total clicks</th>
              </tr>
            </thead>
            <tbody>
              {links.data.data.map((l) => (
                <tr key={l.url}>
                  <td className="break-all">{l.url}</td>
                  <td>{formatNumber(l.uniqueClicks)}</td>
                  <td>{formatNumber(l.totalClicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Recipients({ campaignId, live }: { campaignId: string; live: boolean }) {
  const projectId = useProjectId();
  // The filter lives in the address (?recipients=clicked), so a filtered view can be shared and reloaded.
  const [params, setParams] = useSearchParams();
  const status = (RECIPIENT_FILTERS.find(([f]) => f === params.get('recipients'))?.[0] ?? undefined) as RecipientFilter | undefined;
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const list = useCampaignRecipients(campaignId, { status, search: applied || undefined }, live);
  const pages = list.data?.pages ?? [];
  const rows = pages.flatMap((p) => p.data);
  const total = pages[0]?.total ?? 0;
  return (
    <section className="panel" aria-label="Recipients">
      <h2>Recipients</h2>
      <form
        className="toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
        }}
      >
        <SelectField
          label="Status"
          value={status ?? ''}
          onChange={(e) =>
            setParams(
              (prev) => {
                const next = new URLSearchParams(prev);
                if (e.target.value) next.set('recipients', e.target.value);
                else next.delete('recipients');
                return next;
              },
              { replace: true },
            )
          }
        >
          <option value="">All recipients</option>
          {RECIPIENT_FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField label="Search by email" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Button type="submit">Search</Button>
      </form>
      {list.isPending ? (
        <Loading label="Loading recipients…" />
      ) : list.isError && rows.length === 0 ? (
        <ErrorMessage error={list.error} title="Could not load recipients" />
      ) : rows.length === 0 ? (
        <EmptyState title="No recipient matches">{status || applied ? 'Choose another status or clear the search.' : 'Recipients appear here as sending starts.'}</EmptyState>
      ) : (
        <>
          <p className="muted" role="status">
            {formatNumber(total)} recipient{total === 1 ? '' : 's'}
            {status ? ` ${RECIPIENT_FILTERS.find(([f]) => f === status)?.[1].toLowerCase()}` : ''}
            {applied ? ` matching “${applied}”` : ''}; showing {formatNumber(rows.length)}.
          </p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Status</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Opened</th>
                  <th scope="col">Clicked</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.emailId}>
                    <td className="break-all">{r.contactId ? <Link to={projectPath(projectId, 'contacts', r.contactId)}>{r.email}</Link> : r.email}</td>
                    <td>
                      <Badge tone={TONES[r.status] ?? 'neutral'}>{r.status}</Badge>
                      {r.skipReason && <span className="muted"> {SKIP_REASONS[r.skipReason] ?? r.skipReason}</span>}
                    </td>
                    <td>{r.sentAt ? formatDate(r.sentAt) : '—'}</td>
                    <td>{r.openedAt ? `${formatDate(r.openedAt)}${r.openCount > 1 ? ` (${formatNumber(r.openCount)}×)` : ''}` : '—'}</td>
                    <td>{r.clickedAt ? `${formatDate(r.clickedAt)}${r.clickCount > 1 ? ` (${formatNumber(r.clickCount)}×)` : ''}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.hasNextPage && (
            <Button onClick={() => void list.fetchNextPage()} pending={list.isFetchingNextPage} pendingLabel="Loading…">
              Show more recipients
            </Button>
          )}
          <ErrorMessage error={rows.length > 0 ? list.error : null} title="Could not load more recipients" />
        </>
      )}
    </section>
  );
}
