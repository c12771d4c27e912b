import { useQueryClient } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { usePublicConfig } from '../../api/account';
import { data } from '../../api/client';
import { useDomains } from '../../api/domains';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import type { Domain } from '../../api/types';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { Badge, EmptyState, Notice, PageHeader } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { NotFoundPage } from '../../layouts/RouteError';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { useApi, useProjectId } from '../../lib/project';
import { WarmupPanel } from './WarmupPanel';

function statusBadge(status: string) {
  return status === 'verified' ? <Badge tone="good">Verified</Badge> : <Badge tone="warn">Pending</Badge>;
}

function AddDomain() {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const add = useApiMutation({
    mutationFn: (domain: string) => data(api.POST('/domains', { body: { domain } })),
    onSuccess: (created) => queryClient.setQueryData<Domain[]>(qk.p(projectId, 'domains'), (list) => [created, ...(list ?? []).filter((d) => d.id !== created.id)]),
  });
  // 409: the name was added already (by this or another project): it belongs at the field.
  const taken = add.error instanceof ApiError && add.error.status === 409 ? add.error.message : undefined;
  return (
    <form
      className="panel inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        void add.submit((formValues(form).domain ?? '').trim().toLowerCase()).then((created) => created && form.reset());
      }}
      noValidate
    >
      <TextField label="Domain" name="domain" placeholder="mail.example.com" required hint="The part after @ of the addresses you send from." error={taken ?? fieldError(add.error, 'domain')} />
      <Button type="submit" variant="primary" pending={add.isPending} pendingLabel="Adding…">
        Add domain
      </Button>
      {!taken && <ErrorMessage error={add.error} fields={['domain']} title="Could not add the domain" />}
    </form>
  );
}

function DomainCard({ domain }: { domain: Domain }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const replace = (next: Domain) => queryClient.setQueryData<Domain[]>(qk.p(projectId, 'domains'), (list) => (list ?? []).map((d) => (d.id === next.id ? next : d)));
  const verify = useApiMutation({ mutationFn: () => data(api.GET('/domains/{id}/verify', { params: { path: { id: domain.id } } })), onSuccess: replace });
  const pendingRequired = domain.records.filter((r) => r.required && r.status !== 'verified').length;
  return (
    <section className="panel" aria-label={`Domain ${domain.domain}`}>
      <div className="page-header">
        <div>
          <h2>
            {domain.domain} {statusBadge(domain.status)}
          </h2>
          <p className="muted">
            Added {formatDate(domain.createdAt)}
            {domain.verifiedAt ? `, verified ${formatDate(domain.verifiedAt)}` : ''}
          </p>
        </div>
        <div className="page-actions">
          <Button onClick={() => verify.submit()} pending={verify.isPending} pendingLabel="Checking DNS…">
            Verify now
          </Button>
          <ConfirmButton
            label="Remove"
            doneMessage="Domain removed."
            title={`Remove ${domain.domain}?`}
            description="You will not be able to send from it any more. Templates and unsent campaigns that use it must change their sender first."
            confirmLabel="Remove domain"
            onConfirm={async () => {
              await data(api.DELETE('/domains/{id}', { params: { path: { id: domain.id } } }));
              queryClient.setQueryData<Domain[]>(qk.p(projectId, 'domains'), (list) => (list ?? []).filter((d) => d.id !== domain.id));
            }}
          />
        </div>
      </div>
      <ErrorMessage error={verify.error} title="Could not check the records" />
      {verify.isSuccess && !verify.isPending && (
        <Notice>
          Checked just now: {domain.status === 'verified' ? 'the domain is verified.' : `${pendingRequired} required record${pendingRequired === 1 ? ' is' : 's are'} not found yet. DNS changes can take a while to appear.`}
        </Notice>
      )}
      {domain.status !== 'verified' && <p>Add these records at your DNS provider, then press "Verify now". We also check every 5 minutes.</p>}
      {domain.records.some((r) => r.name === `bounces.${domain.domain}`) && (
        <p className="muted">
          The MX and SPF records of <code>bounces.{domain.domain}</code> bring bounce reports and complaints about the mail you send back to Mailroom.
        </p>
      )}
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">DNS records of {domain.domain}</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">Purpose</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {domain.records.map((r) => (
              <tr key={`${r.type}-${r.name}-${r.purpose}`}>
                <td>
                  {r.type}
                  {r.priority !== undefined && r.priority !== null ? <div className="muted">priority {r.priority}</div> : null}
                </td>
                <td>
                  <code>{r.name}</code> <CopyButton value={r.name} label={`Copy ${r.purpose} record name`} />
                </td>
                <td>
                  <code className="record-value">{r.value.length > 90 ? `${r.value.slice(0, 90)}…` : r.value}</code> <CopyButton value={r.value} label={`Copy ${r.purpose} record value`} />
                </td>
                <td>
                  {r.purpose}
                  {!r.required && <div className="muted">optional</div>}
                </td>
                <td>{statusBadge(r.status)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <WarmupPanel domain={domain} />
    </section>
  );
}

function DomainsPage() {
  const domains = useDomains();
  const config = usePublicConfig();
  return (
    <>
      <PageHeader title="Domains" description="Send from your own domain: add it, publish the DNS records, verify." />
      {config.data?.domainVerification === false && (
        <p className="banner banner-info">Domain verification is off in this deployment (DOMAIN_VERIFICATION=off): every domain counts as verified and any sender address is accepted. The records below are still what a real deployment needs.</p>
      )}
      <AddDomain />
      <QueryView query={domains} title="Could not load the domains">
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No domains yet">Add the domain you send from (like example.com or mail.example.com). We give you the DNS records that prove it is yours and sign your emails.</EmptyState>
          ) : (
            list.map((d) => <DomainCard key={d.id} domain={d} />)
          )
        }
      </QueryView>
    </>
  );
}

export default function DomainsSection() {
  return (
    <Routes>
      <Route index element={<DomainsPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
