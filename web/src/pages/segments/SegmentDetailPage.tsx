import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { qk } from '../../api/queryKeys';
import { data } from '../../api/client';
import { type Segment, useSegment, useSegmentMembers } from '../../api/segments';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextAreaField } from '../../components/Fields';
import { Badge, EmptyState, Loading, Notice, PageHeader } from '../../components/Feedback';
import { Pager } from '../../components/Pager';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatDate, formatNumber } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { describeTree, fromApiTree } from './filterTree';
import { BulkExportButton } from '../contacts/BulkExport';

/** The addresses in a file (CSV, one per line, anything): every token that looks like an email. */
export function emailsInText(text: string): string[] {
  return [...new Set((text.match(/[^\s,;"'<>]+@[^\s,;"'<>]+\.[^\s,;"'<>]+/g) ?? []).map((e) => e.trim()))];
}

/** Addresses pasted one per line, or separated by commas, semicolons or spaces. */
export function parseEmails(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
}

export default function SegmentDetailPage() {
  const { segmentId = '' } = useParams();
  const segment = useSegment(segmentId);
  if (segment.isPending) return <Loading label="Loading the segment…" />;
  if (segment.isError) return <ErrorMessage error={segment.error} title="Could not load the segment" />;
  return <Detail segment={segment.data} />;
}

function Detail({ segment }: { segment: Segment }) {
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshAll = () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'segments') });
  const compute = useApiMutation({
    mutationFn: () => data(api.POST(segment.trackMembership ? '/segments/{id}/compute' : '/segments/{id}/refresh', { params: { path: { id: segment.id } } })),
    onSuccess: () => refreshAll(),
  });
  return (
    <>
      <PageHeader
        title={segment.name}
        description={segment.description ?? undefined}
        actions={
          <>
            <Link className="btn" to={projectPath(projectId, 'segments', segment.id, 'edit')}>
              Edit
            </Link>
            <BulkExportButton choices={[{ id: 'segment', label: `Members of ${segment.name}`, selection: { segmentId: segment.id }, expected: segment.memberCount }]} />
            <ConfirmButton
              label="Delete"
              doneMessage="Segment deleted."
              title={`Delete ${segment.name}?`}
              description="The contacts stay; campaigns and filters that use this segment must be changed first."
              confirmLabel="Delete segment"
              onConfirm={async () => {
                await data(api.DELETE('/segments/{id}', { params: { path: { id: segment.id } } }));
                await refreshAll();
                navigate(projectPath(projectId, 'segments'));
              }}
            />
          </>
        }
      />
      <section className="panel">
        <p>
          <Badge tone={segment.type === 'STATIC' ? 'neutral' : 'info'}>{segment.type.toLowerCase()}</Badge> <strong>{formatNumber(segment.memberCount)}</strong> members · changed {formatDate(segment.updatedAt)}
        </p>
        {segment.type === 'DYNAMIC' && segment.condition && (
          <p>
            Filters: <code>{describeTree(fromApiTree(segment.condition))}</code>
          </p>
        )}
        {segment.type === 'DYNAMIC' && (
          <div className="button-row">
            <Button onClick={() => void compute.submit()} pending={compute.isPending} pendingLabel="Counting…">
              {segment.trackMembership ? 'Compute membership now' : 'Refresh the count'}
            </Button>
            {compute.data && (
              <span role="status">
                {formatNumber(compute.data.memberCount)} members
                {'entered' in compute.data && ` · ${compute.data.entered} entered, ${compute.data.exited} left`}
              </span>
            )}
          </div>
        )}
        <ErrorMessage error={compute.error} title="Could not count" />
      </section>
      {segment.type === 'STATIC' && <StaticMembersForm segment={segment} onChanged={refreshAll} />}
      <Members segment={segment} onChanged={refreshAll} />
    </>
  );
}

function StaticMembersForm({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const api = useApi();
  const [mode, setMode] = useState<'add' | 'remove'>('add');
  const [text, setText] = useState('');
  const [fileNote, setFileNote] = useState('');
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const found = emailsInText(await file.text());
    setText(found.join('\n'));
    setFileNote(found.length ? `${found.length} addresses read from ${file.name}${found.length > 1000 ? ': send at most 1,000 at once' : ''}.` : `No email address found in ${file.name}.`);
  };
  const add = useApiMutation({
    mutationFn: (body: { emails: string[]; createMissing: boolean }) => data(api.POST('/segments/{id}/members', { params: { path: { id: segment.id } }, body })),
    onSuccess: onChanged,
  });
  const remove = useApiMutation({
    mutationFn: (body: { emails: string[] }) => data(api.DELETE('/segments/{id}/members', { params: { path: { id: segment.id } }, body })),
    onSuccess: onChanged,
  });
  const m = mode === 'add' ? add : remove;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const emails = parseEmails(String(form.get('emails') ?? ''));
    if (mode === 'add') void add.submit({ emails, createMissing: form.get('createMissing') === 'on' });
    else void remove.submit({ emails });
  };
  return (
    <form className="panel" onSubmit={onSubmit} noValidate>
      <h2>{mode === 'add' ? 'Add members' : 'Remove members'}</h2>
      <div className="button-row" role="group" aria-label="Add or remove">
        <Button variant={mode === 'add' ? 'primary' : 'secondary'} onClick={() => setMode('add')} aria-pressed={mode === 'add'}>
          Add
        </Button>
        <Button variant={mode === 'remove' ? 'primary' : 'secondary'} onClick={() => setMode('remove')} aria-pressed={mode === 'remove'}>
          Remove
        </Button>
      </div>
      <TextAreaField label="Email addresses" name="emails" rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder={'ada@example.com\ngrace@example.com'} hint="One per line (or separated by commas), up to 1,000 at once. You can paste a CSV column." error={fieldError(m.error, 'emails')} />
      <label className="field">
        Or read them from a file (CSV or text)
        <input type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {fileNote && <p className="muted">{fileNote}</p>}
      {mode === 'add' && <CheckboxField label="Create contacts for addresses that are not contacts yet" name="createMissing" />}
      <ErrorMessage error={m.error} fields={['emails']} title={mode === 'add' ? 'Could not add' : 'Could not remove'} />
      <Button type="submit" variant="primary" pending={m.isPending} pendingLabel="Saving…">
        {mode === 'add' ? 'Add to segment' : 'Remove from segment'}
      </Button>
      {mode === 'add' && add.data && (
        <Notice>
          Added {add.data.added}, already members {add.data.alreadyMembers}, created {add.data.created}.
          {add.data.notFound.length > 0 && ` Not contacts (tick "Create contacts" to add them): ${add.data.notFound.join(', ')}`}
        </Notice>
      )}
      {mode === 'remove' && remove.data && <Notice>Removed {remove.data.removed}.</Notice>}
    </form>
  );
}

function Members({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const projectId = useProjectId();
  const api = useApi();
  const [page, setPage] = useState(1);
  const members = useSegmentMembers(segment.id, page);
  const removeOne = useApiMutation({ mutationFn: (email: string) => data(api.DELETE('/segments/{id}/members', { params: { path: { id: segment.id } }, body: { emails: [email] } })), onSuccess: onChanged });
  return (
    <section className="panel">
      <h2>Members{segment.type === 'DYNAMIC' && <span className="muted"> (live)</span>}</h2>
      {members.isPending ? (
        <Loading label="Loading members…" />
      ) : members.isError ? (
        <ErrorMessage error={members.error} title="Could not load members" />
      ) : members.data.data.length === 0 ? (
        <EmptyState title="No members">{segment.type === 'STATIC' ? 'Add addresses with the form above.' : 'No contact matches the filters now: edit the filters, or import contacts.'}</EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Subscribed</th>
                  <th scope="col">Created</th>
                  {segment.type === 'STATIC' && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {members.data.data.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link to={projectPath(projectId, 'contacts', c.id)}>{c.email}</Link>
                    </td>
                    <td>{c.subscribed ? 'yes' : 'no'}</td>
                    <td>{formatDate(c.createdAt)}</td>
                    {segment.type === 'STATIC' && (
                      <td>
                        <Button onClick={() => void removeOne.submit(c.email)} aria-label={`Remove ${c.email}`}>
                          Remove
                        </Button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ErrorMessage error={removeOne.error} title="Could not remove" />
          <Pager page={members.data.page} totalPages={members.data.totalPages} total={members.data.total} onPage={setPage} busy={members.isFetching} />
        </>
      )}
    </section>
  );
}
