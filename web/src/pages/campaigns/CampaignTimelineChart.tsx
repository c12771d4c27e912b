import { useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useCampaignTimeline } from '../../api/campaignResults';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField } from '../../components/Fields';
import { Loading } from '../../components/Feedback';
import { formatDate } from '../../lib/format';

/** Unique opens and clicks (first ones per recipient) per hour or day; lazy-loaded with recharts. */
export default function CampaignTimelineChart({ campaignId, live }: { campaignId: string; live: boolean }) {
  const [interval, setBucket] = useState<'hour' | 'day'>('hour');
  const timeline = useCampaignTimeline(campaignId, interval, live);
  return (
    <>
      <div className="toolbar">
        <SelectField label="Per" value={interval} onChange={(e) => setBucket(e.target.value as 'hour' | 'day')}>
          <option value="hour">Hour</option>
          <option value="day">Day</option>
        </SelectField>
      </div>
      {timeline.isPending ? (
        <Loading label="Loading opens and clicks…" />
      ) : timeline.isError ? (
        <ErrorMessage error={timeline.error} title="Could not load opens and clicks" />
      ) : timeline.data.data.length === 0 ? (
        <p className="muted">No open or click yet.</p>
      ) : (
        <div style={{ width: '100%', height: 280 }} role="img" aria-label={`Unique opens and clicks per ${interval}`}>
          <ResponsiveContainer>
            <LineChart data={timeline.data.data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="time" tickFormatter={(d: string) => formatDate(d)} minTickGap={24} />
              <YAxis allowDecimals={false} />
              <Tooltip labelFormatter={(d) => formatDate(String(d))} />
              <Legend />
              <Line type="monotone" dataKey="opens" name="Unique opens" stroke="#b7791f" dot={false} isAnimationActive={false} />
              <Line type="monotone" dataKey="clicks" name="Unique clicks" stroke="#7c3aed" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </>
  );
}
