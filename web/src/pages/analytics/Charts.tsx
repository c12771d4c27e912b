import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTimeseries, useTopCampaigns, useTopEvents } from '../../api/analytics';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField } from '../../components/Fields';
import { EmptyState, Loading } from '../../components/Feedback';
import { formatDate } from '../../lib/format';

const SERIES = [
  ['sent', '#2f5bea'],
  ['delivered', '#1f8a4c'],
  ['opened', '#b7791f'],
  ['clicked', '#7c3aed'],
  ['bounced', '#c53030'],
] as const;

const RANGES = { '1': 'Last 24 hours', '7': 'Last 7 days', '30': 'Last 30 days', '90': 'Last 90 days' } as const;

/** The period's start, on the hour (so the query key stays the same while the page is open). */
function rangeOf(days: keyof typeof RANGES) {
  const from = new Date(Date.now() - Number(days) * 86_400_000);
  from.setMinutes(0, 0, 0);
  return { days, from: from.toISOString() };
}

export default function Charts() {
  const [{ days, from }, setRange] = useState(() => rangeOf('30'));
  const interval = days === '1' ? 'hour' : 'day';
  const [metric, setMetric] = useState<'opens' | 'clicks' | 'sent'>('sent');
  const series = useTimeseries({ from, interval });
  const top = useTopCampaigns(metric);
  const events = useTopEvents();
  const label = (d: string) => (interval === 'hour' ? new Date(d).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : new Date(d).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
  return (
    <>
      <section className="panel" aria-label="Over time">
        <div className="toolbar">
          <SelectField label="Period" value={days} onChange={(e) => setRange(rangeOf(e.target.value as keyof typeof RANGES))}>
            {Object.entries(RANGES).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </SelectField>
        </div>
        {series.isPending ? (
          <Loading label="Loading…" />
        ) : series.isError ? (
          <ErrorMessage error={series.error} title="Could not load the time series" />
        ) : series.data.data.every((p) => p.sent + p.delivered + p.opened + p.clicked + p.bounced === 0) ? (
          <EmptyState title="No email in this period">Send a campaign or an email with POST /v1/send, or choose a longer period.</EmptyState>
        ) : (
          <div style={{ width: '100%', height: 320 }}>
            <ResponsiveContainer>
              <LineChart data={series.data.data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" tickFormatter={label} minTickGap={24} />
                <YAxis allowDecimals={false} />
                <Tooltip labelFormatter={(d) => formatDate(String(d))} />
                <Legend />
                {SERIES.map(([key, color]) => (
                  <Line key={key} type="monotone" dataKey={key} stroke={color} dot={false} isAnimationActive={false} />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </div>
        )}
      </section>
      <div className="two-columns">
        <section className="panel" aria-label="Top campaigns">
          <h2>Top campaigns</h2>
          <SelectField label="By" value={metric} onChange={(e) => setMetric(e.target.value as typeof metric)}>
            <option value="sent">emails sent</option>
            <option value="opens">opens</option>
            <option value="clicks">clicks</option>
          </SelectField>
          {top.isError ? (
            <ErrorMessage error={top.error} title="Could not load top campaigns" />
          ) : !top.data ? (
            <Loading />
          ) : top.data.data.length === 0 ? (
            <p className="muted">No sent campaigns yet.</p>
          ) : (
            <div style={{ width: '100%', height: 260 }}>
              <ResponsiveContainer>
                <BarChart data={top.data.data} layout="vertical" margin={{ left: 24 }}>
                  <XAxis type="number" allowDecimals={false} />
                  <YAxis type="category" dataKey="name" width={170} tick={{ fontSize: 12 }} />
                  <Tooltip />
                  <Bar dataKey="value" name={metric} fill="#2f5bea" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
        </section>
        <section className="panel" aria-label="Top events">
          <h2>Top events</h2>
          {events.isError ? (
            <ErrorMessage error={events.error} title="Could not load top events" />
          ) : !events.data ? (
            <Loading />
          ) : events.data.data.length === 0 ? (
            <p className="muted">No tracked events yet: send one with POST /v1/track.</p>
          ) : (
            <div style={{ width: '100%', height: 260 }}>
              <ResponsiveContainer>
                <BarChart data={events.data.data} layout="vertical" margin={{ left: 24 }}>
                  <XAxis type="number" allowDecimals={false} />
                  <YAxis type="category" dataKey="name" width={170} tick={{ fontSize: 12 }} />
                  <Tooltip />
                  <Bar dataKey="count" name="events" fill="#7c3aed" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
