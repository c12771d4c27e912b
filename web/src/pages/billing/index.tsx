import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent } from 'react';
import { accountApi, useMe, usePublicConfig } from '../../api/account';
import { BILLING_CATEGORIES, billingApi, type BillingCategory, type BillingLimits, useBillingConsumption, useBillingLimits } from '../../api/billing';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { Badge, Loading, PageHeader, ProgressBar } from '../../components/Feedback';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate, formatNumber } from '../../lib/format';
import { useProjectId } from '../../lib/project';

const LABELS: Record<BillingCategory, string> = {
  transactional: 'Transactional emails (POST /v1/send)',
  campaigns: 'Campaign emails',
  workflows: 'Workflow emails',
  inbound: 'Inbound emails',
};

/** "" → null (no limit); a positive integer; anything else is returned as text for the API to refuse. */
export function parseLimit(text: string): number | null | string {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '') return null;
  return /^\d+$/.test(t) ? Number(t) : text;
}

export default function BillingSection() {
  const projectId = useProjectId();
  const config = usePublicConfig();
  const me = useMe();
  const members = useQuery({ queryKey: qk.p(projectId, 'members'), queryFn: () => accountApi.members(projectId) });
  const myRole = members.data?.find((m) => m.userId === me.data?.id)?.role;
  const canEdit = myRole === 'OWNER' || myRole === 'ADMIN';
  const limits = useBillingLimits();
  const consumption = useBillingConsumption();
  return (
    <>
      <PageHeader title="Billing" description="What the project sent this month, and the monthly caps that stop sending beyond them." />
      {config.data?.billing && <Subscription projectId={projectId} canEdit={canEdit} />}
      <section className="panel" aria-label="This month">
        <h2>This month</h2>
        {consumption.isPending ? (
          <Loading />
        ) : consumption.isError ? (
          <ErrorMessage error={consumption.error} title="Could not load the consumption" />
        ) : (
          <>
            <p className="muted">
              {formatDate(consumption.data.periodStart)} to {formatDate(consumption.data.periodEnd)} (UTC calendar month)
            </p>
            <dl className="dl-grid">
              {BILLING_CATEGORIES.map((c) => (
                <div key={c} style={{ display: 'contents' }}>
                  <dt>{LABELS[c]}</dt>
                  <dd>{formatNumber(consumption.data[c])}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </section>
      {limits.isPending ? <Loading label="Loading limits…" /> : limits.isError ? <ErrorMessage error={limits.error} title="Could not load the limits" /> : <LimitsForm limits={limits.data} canEdit={canEdit} />}
    </>
  );
}

function LimitsForm({ limits, canEdit }: { limits: BillingLimits; canEdit: boolean }) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const save = useApiMutation({
    mutationFn: (body: Record<BillingCategory, number | null | string>) => billingApi.updateLimits(projectId, body),
    onSuccess: (data) => queryClient.setQueryData(qk.p(projectId, 'billing', 'limits'), data),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void save.submit(Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, parseLimit(String(f.get(c) ?? ''))])) as Record<BillingCategory, number | null | string>);
  };
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-label="Monthly limits">
      <h2>Monthly limits</h2>
      <p className="muted">Over a limit, POST /v1/send answers 402, a campaign is refused before anything leaves, and a workflow email step fails. Empty means no limit.</p>
      {!canEdit && <p className="muted">Only owners and admins can change the limits.</p>}
      {BILLING_CATEGORIES.map((c) => {
        const l = limits[c];
        return (
          <div key={c} className="limit-row">
            <TextField label={`${LABELS[c]}: limit`} name={c} inputMode="numeric" defaultValue={l.limit === null ? '' : String(l.limit)} disabled={!canEdit} placeholder="no limit" error={fieldError(save.error, c)} />
            {l.limit !== null ? (
              <ProgressBar label={`${LABELS[c]} used`} value={Math.min(l.usage, l.limit)} max={Math.max(1, l.limit)} detail={`${formatNumber(l.usage)} of ${formatNumber(l.limit)} (${Math.round(l.percentage)}%)`} />
            ) : (
              <p className="muted">{formatNumber(l.usage)} used, no limit</p>
            )}
            {l.isBlocked ? <Badge tone="bad">blocked: limit reached</Badge> : l.isWarning ? <Badge tone="warn">over 80%</Badge> : null}
          </div>
        );
      })}
      <ErrorMessage error={save.error} fields={[...BILLING_CATEGORIES]} title="Could not save the limits" />
      {canEdit && (
        <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
          Save limits
        </Button>
      )}
      {save.isSuccess && <span role="status"> Saved.</span>}
    </form>
  );
}

function Subscription({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const go = useApiMutation({
    mutationFn: (what: 'checkout' | 'billing-portal') => (what === 'checkout' ? billingApi.checkout(projectId) : billingApi.portal(projectId)),
    onSuccess: (r) => {
      window.location.assign(r.url);
    },
  });
  return (
    <section className="panel" aria-label="Subscription">
      <h2>Subscription</h2>
      {canEdit ? (
        <div className="button-row">
          <Button variant="primary" onClick={() => void go.submit('checkout')} pending={go.isPending && go.variables === 'checkout'} pendingLabel="Opening…">
            Upgrade (checkout)
          </Button>
          <Button onClick={() => void go.submit('billing-portal')} pending={go.isPending && go.variables === 'billing-portal'} pendingLabel="Opening…">
            Manage billing (portal)
          </Button>
        </div>
      ) : (
        <p className="muted">Only owners and admins manage the subscription.</p>
      )}
      <ErrorMessage error={go.error} title="Could not open billing" />
    </section>
  );
}
