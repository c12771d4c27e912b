import { useQuery } from '@tanstack/react-query';
import { accountClient, data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { Badge, EmptyState } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formatDate, formatNumber, formatPercent } from '../../lib/format';
import { useProjectId } from '../../lib/project';

/** The document describes this answer loosely (every field optional, suspensions untyped): what the service sends. */
interface SecurityState {
  disabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  window: { days: number; since: string };
  emails: number;
  bounces: number;
  complaints: number;
  bounceRate: number;
  complaintRate: number;
  thresholds: { minimumEmails: number; bounceRate: number; complaintRate: number };
  suspensions: { id: string; reason: string; emails: number; bounceRate: number; complaintRate: number; createdAt: string; liftedAt: string | null }[];
}

function RateMeter({ label, rate, limit, count }: { label: string; rate: number; limit: number; count: number }) {
  const tone = rate > limit ? 'bad' : rate > limit * 0.5 ? 'warn' : 'good';
  return (
    <div className="panel">
      <h2>{label}</h2>
      <p style={{ fontSize: '1.6rem', margin: 0 }}>
        {formatPercent(rate, 2)} <Badge tone={tone}>{tone === 'bad' ? 'over the limit' : tone === 'warn' ? 'watch it' : 'healthy'}</Badge>
      </p>
      <div className="progress-track" role="meter" aria-label={`${label} against the ${formatPercent(limit)} limit`} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={rate}>
        <div className="progress-fill" style={{ width: `${Math.min(100, (rate / limit) * 100)}%`, background: tone === 'bad' ? 'var(--danger)' : undefined }} />
      </div>
      <p className="muted">
        {formatNumber(count)} in the window; the project is disabled above {formatPercent(limit)}.
      </p>
    </div>
  );
}

export default function SecuritySettings() {
  const projectId = useProjectId();
  const security = useQuery({
    queryKey: qk.p(projectId, 'security'),
    queryFn: async () => (await data(accountClient.GET('/users/@me/projects/{id}/security', { params: { path: { id: projectId } } }))) as SecurityState,
  });
  return (
    <QueryView query={security} title="Could not load the security state">
      {(s) => (
        <>
          <p>
            Over the last {s.window.days} days (since {formatDate(s.window.since)}): {formatNumber(s.emails)} emails sent. Rates count once at least {formatNumber(s.thresholds.minimumEmails)} emails were sent.
          </p>
          {s.disabled && (
            <p className="banner banner-bad" role="alert">
              Disabled since {formatDate(s.disabledAt)} ({s.disabledReason}). Enable it again under General once the cause is fixed.
            </p>
          )}
          <div className="two-columns">
            <RateMeter label="Bounce rate" rate={s.bounceRate} limit={s.thresholds.bounceRate} count={s.bounces} />
            <RateMeter label="Complaint rate" rate={s.complaintRate} limit={s.thresholds.complaintRate} count={s.complaints} />
          </div>
          <h2>Suspensions</h2>
          {s.suspensions.length === 0 ? (
            <EmptyState title="Never suspended">Keep lists clean (remove addresses that bounce) and make unsubscribing easy to stay that way.</EmptyState>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Emails</th>
                    <th scope="col">Bounce rate</th>
                    <th scope="col">Complaint rate</th>
                    <th scope="col">Lifted</th>
                  </tr>
                </thead>
                <tbody>
                  {s.suspensions.map((x) => (
                    <tr key={x.id}>
                      <td>{formatDate(x.createdAt)}</td>
                      <td>{x.reason}</td>
                      <td>{formatNumber(x.emails)}</td>
                      <td>{formatPercent(x.bounceRate, 2)}</td>
                      <td>{formatPercent(x.complaintRate, 2)}</td>
                      <td>{x.liftedAt ? formatDate(x.liftedAt) : 'not yet'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </QueryView>
  );
}
