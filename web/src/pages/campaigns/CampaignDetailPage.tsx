import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Campaign, type CampaignAudiencePreview, type CampaignStats, isLive, SKIP_REASONS, useCampaign, useCampaignAudiencePreview, useCampaignStats } from '../../api/campaigns';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useSegment } from '../../api/segments';
import { useTopics } from '../../api/topics';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { toast } from '../../components/Toasts';
import { TextField } from '../../components/Fields';
import { Loading, Notice, PageHeader, ProgressBar } from '../../components/Feedback';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate, formatNumber, formatPercent, localToIso, userTimeZone } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { describeTree, fromApiTree } from '../segments/filterTree';
import { CampaignResults } from './CampaignResults';
import { AsContactPanel } from '../../components/previews/AsContact';
import { CancelWindow, SendNow, useSecondsLeft } from './SendNow';
import { StatusBadge } from './StatusBadge';
import { AbResults } from './AbResults';
import { LocalTimeSchedule, ReleaseTimeline } from './ReleaseTimeline';

export default function CampaignDetailPage() {
  const { campaignId = '' } = useParams();
  const campaign = useCampaign(campaignId);
  if (campaign.isPending) return <Loading label="Loading the campaign…" />;
  if (campaign.isError) return <ErrorMessage error={campaign.error} title="Could not load the campaign" />;
  return <Detail campaign={campaign.data} />;
}

function Detail({ campaign }: { campaign: Campaign }) {
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'campaigns') });
  const [when, setWhen] = useState('');
  const send = useApiMutation({
    mutationFn: (scheduledFor: string | null) => data(api.POST('/campaigns/{id}/send', { params: { path: { id: campaign.id } }, body: scheduledFor ? { scheduledFor } : {} })),
    onSuccess: invalidate,
  });
  const cancel = useApiMutation({ mutationFn: () => data(api.POST('/campaigns/{id}/cancel', { params: { path: { id: campaign.id } } })), onSuccess: invalidate });
  const duplicate = useApiMutation({
    mutationFn: () => data(api.POST('/campaigns/{id}/duplicate', { params: { path: { id: campaign.id } } })),
    onSuccess: (copy) => {
      void invalidate();
      navigate(projectPath(projectId, 'campaigns', copy.id, 'edit'));
    },
  });
  const s = campaign.status;
  const secondsLeft = useSecondsLeft(campaign);
  const canEdit = s === 'DRAFT' || s === 'SCHEDULED';
  const onSchedule = (e: FormEvent) => {
    e.preventDefault();
    void send.submit(localToIso(when) ?? when);
  };
  return (
    <>
      <PageHeader
        title={campaign.name}
        description={
          <>
            <StatusBadge status={s} /> {campaign.subject}
          </>
        }
        actions={
          <>
            {canEdit && (
              <Link className="btn" to={projectPath(projectId, 'campaigns', campaign.id, 'edit')}>
                Edit
              </Link>
            )}
            <Button onClick={() => void duplicate.submit()} pending={duplicate.isPending} pendingLabel="Copying…">
              Duplicate
            </Button>
            {s !== 'SCHEDULED' && s !== 'SENDING' && (
              <ConfirmButton
                label="Delete"
                doneMessage="Campaign deleted."
                title={`Delete ${campaign.name}?`}
                description={s === 'SENT' ? 'The emails already sent stay sent; the campaign and its statistics go.' : 'The draft is deleted.'}
                confirmLabel="Delete campaign"
                onConfirm={async () => {
                  await data(api.DELETE('/campaigns/{id}', { params: { path: { id: campaign.id } } }));
                  await invalidate();
                  navigate(projectPath(projectId, 'campaigns'));
                }}
              />
            )}
          </>
        }
      />
      <ErrorMessage error={duplicate.error} title="Could not duplicate" />

      {secondsLeft !== undefined ? (
        <section className="panel" aria-label="Send">
          <h2>Sending soon</h2>
          <CancelWindow secondsLeft={secondsLeft} cancel={cancel} />
          <ErrorMessage error={cancel.error} title="Could not cancel" />
        </section>
      ) : (
        (s === 'DRAFT' || s === 'SCHEDULED') && (
          <section className="panel" aria-label="Send">
            <h2>{s === 'SCHEDULED' ? `Scheduled for ${formatDate(campaign.scheduledFor)}` : 'Send'}</h2>
            <div className="button-row">
              <SendNow campaign={campaign} send={send} />
              {s === 'SCHEDULED' && (
                <Button onClick={() => void cancel.submit().then((done) => done !== undefined && toast('Schedule cancelled: the campaign is a draft again.'))} pending={cancel.isPending} pendingLabel="Cancelling…">
                  Cancel schedule
                </Button>
              )}
            </div>
            <form className="toolbar" onSubmit={onSchedule} noValidate>
              <TextField label={`Send at (${userTimeZone()})`} type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} error={fieldError(send.error, 'scheduledFor')} />
              <Button type="submit" disabled={!when || send.isPending}>
                {s === 'SCHEDULED' ? 'Reschedule' : 'Schedule'}
              </Button>
            </form>
            <LocalTimeSchedule campaign={campaign} />
            <ErrorMessage error={send.error} fields={['scheduledFor']} title="Could not send" />
            <ErrorMessage error={cancel.error} title="Could not cancel" />
            {s === 'SCHEDULED' && send.data?.data.scheduledFor && <Notice>Scheduled for {formatDate(send.data.data.scheduledFor)}.</Notice>}
          </section>
        )
      )}
      <ReleaseTimeline campaign={campaign} />
      {s === 'SENDING' && (
        <section className="panel" aria-label="Sending">
          <Button variant="danger" onClick={() => void cancel.submit().then((done) => done !== undefined && toast('Sending stopped.'))} pending={cancel.isPending} pendingLabel="Stopping…">
            Stop sending
          </Button>
          <span className="muted"> What has left stays sent; nothing more leaves.</span>
          <ErrorMessage error={cancel.error} title="Could not stop" />
        </section>
      )}

      <Stats campaign={campaign} />
      {(s === 'SENDING' || s === 'SENT' || s === 'CANCELLED') && <CampaignResults campaign={campaign} />}
      <Audience campaign={campaign} />
      <AsContactPanel target={{ kind: 'campaigns', id: campaign.id, version: campaign.updatedAt }} />
      <section className="panel">
        <h2>Email</h2>
        <dl className="dl-grid">
          <dt>From</dt>
          <dd>
            {campaign.fromName ? `${campaign.fromName} <${campaign.from}>` : campaign.from}
          </dd>
          {campaign.replyTo && (
            <>
              <dt>Reply-to</dt>
              <dd>{campaign.replyTo}</dd>
            </>
          )}
          <dt>Type</dt>
          <dd>{campaign.type.toLowerCase()}</dd>
          <dt>Subject</dt>
          <dd>{campaign.subject}</dd>
        </dl>
        <details>
          <summary>Body</summary>
          <pre className="code-block">{campaign.body}</pre>
        </details>
      </section>
    </>
  );
}

function Audience({ campaign }: { campaign: Campaign }) {
  const segment = useSegment(campaign.audienceType === 'SEGMENT' ? (campaign.segmentId ?? undefined) : undefined);
  const topic = useTopics().data?.find((t) => t.id === campaign.topicId);
  return (
    <section className="panel">
      <h2>Audience</h2>
      <p>
        {campaign.audienceType === 'ALL' && 'All contacts of the project.'}
        {campaign.audienceType === 'SEGMENT' && <>Segment {segment.data ? <strong>{segment.data.name}</strong> : campaign.segmentId}.</>}
        {campaign.audienceType === 'FILTERED' && campaign.audienceCondition && (
          <>
            Contacts where <code>{describeTree(fromApiTree(campaign.audienceCondition))}</code>
          </>
        )}
        {topic && (
          <>
            {' '}
            Members of the topic <strong>{topic.name}</strong> only.
          </>
        )}
      </p>
    </section>
  );
}

/** A DRAFT or SCHEDULED campaign has no statistics yet (its audience is fixed when sending starts): it shows who would get it now. */
function Stats({ campaign }: { campaign: Campaign }) {
  return campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED' ? <AudienceNow campaign={campaign} /> : <SentStats campaign={campaign} />;
}

function AudienceNow({ campaign }: { campaign: Campaign }) {
  const preview = useCampaignAudiencePreview(campaign.id);
  if (preview.isPending) return <Loading label="Counting the audience…" />;
  if (preview.isError) return <ErrorMessage error={preview.error} title="Could not count the audience" />;
  const p: CampaignAudiencePreview = preview.data;
  return (
    <section className="panel" aria-label="Audience now">
      <h2>Audience if sent now</h2>
      <p>
        <strong>{formatNumber(p.totalRecipients - p.skippedCount)}</strong> of {formatNumber(p.totalRecipients)} contacts would get it; {formatNumber(p.skippedCount)} skipped.
      </p>
      <SkipReasons skipped={p.skipped} />
    </section>
  );
}

function SentStats({ campaign }: { campaign: Campaign }) {
  const stats = useCampaignStats(campaign.id, campaign.status);
  if (stats.isPending) return <Loading label="Loading statistics…" />;
  if (stats.isError) return <ErrorMessage error={stats.error} title="Could not load statistics" />;
  const st: CampaignStats = stats.data;
  return (
    <>
    <section className="panel" aria-label="Statistics">
      <h2>Statistics</h2>
      {campaign.status === 'SENDING' && <ProgressBar label="Sending" value={st.sentCount + st.skippedCount} max={Math.max(1, st.totalRecipients)} detail={`${formatNumber(st.sentCount)} of ${formatNumber(st.totalRecipients)} sent`} />}
      <dl className="stat-grid">
        {(
          [
            ['Recipients', st.totalRecipients],
            ['Sent', st.sentCount],
            ['Delivered', st.deliveredCount],
            ['Opened', st.openedCount],
            ['Clicked', st.clickedCount],
            ['Bounced', st.bouncedCount],
            ['Complaints', st.complainedCount],
            ['Unsubscribed', st.unsubscribedCount],
            ['Skipped', st.skippedCount],
            ['Failed', st.failedCount],
            ['Uncertain', st.uncertainCount],
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{formatNumber(n)}</dd>
          </div>
        ))}
        <div>
          <dt>Open rate</dt>
          <dd>{formatPercent(st.openRate)}</dd>
        </div>
        <div>
          <dt>Click rate</dt>
          <dd>{formatPercent(st.clickRate)}</dd>
        </div>
        <div>
          <dt>Bounce rate</dt>
          <dd>{formatPercent(st.bounceRate)}</dd>
        </div>
      </dl>
      {isLive(campaign.status) && <p className="muted">Updating every second.</p>}
      {st.uncertainCount > 0 && <ResendUncertain campaign={campaign} count={st.uncertainCount} arrivedShare={st.uncertainArrivedShare} />}
      <SkipReasons skipped={st.skipped} />
    </section>
    {st.abTest && <AbResults campaign={campaign} ab={st.abTest} />}
    </>
  );
}

/** The user's explicit at-least-once choice for emails interrupted during their hand-over. */
export function ResendUncertain({ campaign, count, arrivedShare }: { campaign: Campaign; count: number; arrivedShare: number | null }) {
  const projectId = useProjectId();
  const api = useApi();
  const queryClient = useQueryClient();
  return (
    <div className="notice" role="status">
      <p>
        <strong>{formatNumber(count)} uncertain:</strong> {count === 1 ? 'one email was' : `${formatNumber(count)} emails were`} interrupted while being handed to the mail
        server (a crash or an outage). They may or may not have arrived, so they are not sent again unless you ask.
      </p>
      {arrivedShare !== null && (
        <p className="muted">
          On this server about {formatPercent(arrivedShare, 0)} of uncertain emails usually arrived all the same (measured on its own hand-overs): sending them again gives those
          recipients a second copy.
        </p>
      )}
      <ConfirmButton
        label="Send uncertain again"
        title="Send the uncertain emails again?"
        description={`Recipients who did receive the first copy will get a second one. ${formatNumber(count)} email${count === 1 ? '' : 's'} will be queued.`}
        confirmLabel="Send again"
        variant="primary"
        onConfirm={async () => {
          await data(api.POST('/campaigns/{id}/resend-uncertain', { params: { path: { id: campaign.id } } }));
          await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'campaigns') });
        }}
      />
    </div>
  );
}

function SkipReasons({ skipped }: { skipped: Record<string, number> | undefined }) {
  const reasons = Object.entries(skipped ?? {}).filter(([, n]) => n > 0);
  if (reasons.length === 0) return null;
  return (
    <>
      <h3>Skipped</h3>
      <ul aria-label="Skipped contacts by reason">
        {reasons.map(([reason, n]) => (
          <li key={reason}>
            {formatNumber(n)} {SKIP_REASONS[reason] ?? reason}
          </li>
        ))}
      </ul>
    </>
  );
}

