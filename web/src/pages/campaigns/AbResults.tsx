import { useQueryClient } from '@tanstack/react-query';
import type { Campaign, CampaignStats } from '../../api/campaigns';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useApiMutation } from '../../lib/forms';
import { formatDate, formatNumber, formatPercent } from '../../lib/format';
import { useApi, useProjectId } from '../../lib/project';

const PHASES: Record<NonNullable<CampaignStats['abTest']>['phase'], string> = {
  testing: 'Sending the test share',
  waiting: 'Waiting before picking the winner',
  winner: 'The winner goes to the rest of the audience',
};

/** An A/B campaign's per-variant results, with its winner, and a "pick winner" button while the test runs (docs/delivery-control.md). */
export function AbResults({ campaign, ab }: { campaign: Campaign; ab: NonNullable<CampaignStats['abTest']> }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const pick = useApiMutation({
    mutationFn: (variant: string) => data(api.POST('/campaigns/{id}/ab/winner', { params: { path: { id: campaign.id } }, body: { variant } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'campaigns') }),
  });
  const canPick = campaign.status === 'SENDING' && !ab.winner;
  const metric = campaign.abTest?.metric ?? 'opens';
  return (
    <section className="panel" aria-label="A/B test">
      <h2>A/B test</h2>
      <p>
        {PHASES[ab.phase]}
        {ab.winner && ` · winner ${ab.winner}${ab.decidedAt ? `, decided ${formatDate(ab.decidedAt)}` : ''}`}
        {` · winner by ${metric === 'clicks' ? 'click' : 'open'} rate`}
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>Variant</th>
            <th>Subject</th>
            <th>Recipients</th>
            <th>Delivered</th>
            <th>Open rate</th>
            <th>Click rate</th>
            {canPick && <th aria-label="Actions" />}
          </tr>
        </thead>
        <tbody>
          {ab.variants.map((v) => (
            <tr key={v.variant} aria-label={`Variant ${v.variant}`}>
              <td>
                {v.variant}
                {ab.winner === v.variant && <strong> (winner)</strong>}
              </td>
              <td>{v.subject}</td>
              <td>{formatNumber(v.recipients)}</td>
              <td>{formatNumber(v.delivered)}</td>
              <td>{formatPercent(v.openRate)}</td>
              <td>{formatPercent(v.clickRate)}</td>
              {canPick && (
                <td>
                  <Button type="button" pending={pick.isPending && pick.variables === v.variant} pendingLabel="Picking…" onClick={() => void pick.submit(v.variant)}>
                    Pick {v.variant} as winner
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorMessage error={pick.error} title="Could not pick the winner" />
    </section>
  );
}
