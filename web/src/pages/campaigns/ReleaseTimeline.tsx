import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Campaign, useCampaignStats } from '../../api/campaigns';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate, formatNumber } from '../../lib/format';
import { useApi, useProjectId } from '../../lib/project';

const DAY_NAMES: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** The delivery settings in words ("Waves of 1,000 every 60 min · Mon–Fri 08:00–18:00 Europe/Paris"). */
export function describeDelivery(c: Pick<Campaign, 'delivery' | 'timezone' | 'localScheduledFor' | 'fallbackTimezone'>): string[] {
  const parts: string[] = [];
  if (c.timezone === 'recipient' && c.localScheduledFor) parts.push(`At ${c.localScheduledFor.replace('T', ' ')} in each recipient's time zone (others: ${c.fallbackTimezone ?? 'UTC'})`);
  const d = c.delivery;
  if (d?.batchSize) parts.push(`Waves of ${formatNumber(d.batchSize)} every ${d.intervalMinutes ?? 60} min`);
  if (d?.window) parts.push(`Window ${d.window.days.map((x) => DAY_NAMES[x] ?? x).join(', ')} ${d.window.from}–${d.window.to} (${d.window.timezone})`);
  return parts;
}

/**
 * The release timeline of a campaign with delivery control (or held by its domain's warm-up): its
 * settings, and while it sends, how many recipients wait and when the next batch goes (from the
 * stats, refreshed each second).
 */
export function ReleaseTimeline({ campaign }: { campaign: Campaign }) {
  const stats = useCampaignStats(campaign.id, campaign.status);
  const st = stats.data;
  // A campaign without delivery settings shows it only while the sender's warm-up holds it (the stats' next batch is the next UTC day).
  const warmupHold = campaign.status === 'SENDING' && Boolean(st?.nextBatchAt) && describeDelivery(campaign).length === 0;
  const parts = warmupHold ? ["The sending domain's warm-up cap for today is reached: the rest goes out from the next UTC day"] : describeDelivery(campaign);
  if (parts.length === 0) return null;
  return (
    <section className="panel" aria-label="Release timeline">
      <h2>Release timeline</h2>
      <ul>
        {parts.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      {campaign.status === 'SCHEDULED' && <p>First release: {formatDate(campaign.scheduledFor)}</p>}
      {campaign.status === 'SENDING' && st && (
        <dl className="dl-grid">
          <dt>Waiting</dt>
          <dd data-testid="release-waiting">{formatNumber(st.waiting)} recipients</dd>
          <dt>Next batch at</dt>
          <dd data-testid="release-next">{st.nextBatchAt ? formatDate(st.nextBatchAt) : st.waiting > 0 ? 'Now' : 'All released'}</dd>
        </dl>
      )}
      <ErrorMessage error={stats.error} title="Could not load the timeline" />
    </section>
  );
}

/** "At each recipient's local time": a wall-clock time (no offset) and the zone of contacts without one. */
export function LocalTimeSchedule({ campaign }: { campaign: Campaign }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [when, setWhen] = useState('');
  const [fallback, setFallback] = useState('UTC');
  const send = useApiMutation({
    mutationFn: (body: { scheduledFor: string; timezone: 'recipient'; fallbackTimezone: string }) =>
      data(api.POST('/campaigns/{id}/send', { params: { path: { id: campaign.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'campaigns') }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send.submit({ scheduledFor: when.length === 16 ? `${when}:00` : when, timezone: 'recipient', fallbackTimezone: fallback.trim() });
  };
  return (
    <form className="toolbar" onSubmit={onSubmit} noValidate aria-label="Send at each recipient's local time">
      <TextField label="At each recipient's local time" type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} error={fieldError(send.error, 'scheduledFor')} />
      <TextField label="Time zone of contacts without one" value={fallback} onChange={(e) => setFallback(e.target.value)} error={fieldError(send.error, 'fallbackTimezone')} />
      <Button type="submit" disabled={!when || send.isPending}>
        Schedule by time zone
      </Button>
      <ErrorMessage error={send.error} fields={['scheduledFor', 'fallbackTimezone']} title="Could not schedule" />
    </form>
  );
}
