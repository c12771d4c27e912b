import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { data } from '../../api/client';
import { useContactInbound } from '../../api/activity';
import { useContact } from '../../api/contacts';
import { useProject } from '../../api/account';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import type { Contact } from '../../api/types';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { Badge, EmptyState, Loading, Notice, PageHeader } from '../../components/Feedback';
import { Verdicts } from '../../components/Verdicts';
import { dataPatch, fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { KEY_SYNTAX_HINT } from '../../lib/liquid-keys';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { ContactConsent } from './ContactConsent';
import { ExportContactButton } from './ContactExport';
import { EraseContactButton } from './ContactErase';
import { ContactTimeline } from './ContactTimeline';
import { DataFieldsEditor, useFieldTypes } from './DataFieldsEditor';
import { type DataRow, type FieldType, fromRows, toRows } from './dataFields';

const FIELDS = ['email', 'subscribed', 'data'] as const;

function EditContact({ contact, fieldTypes }: { contact: Contact; fieldTypes: ReadonlyMap<string, FieldType> }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<DataRow[]>(() => toRows(contact.data ?? {}, fieldTypes));
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  // A saved (or otherwise changed) contact shows its stored data again; the mutation's state stays.
  const [shown, setShown] = useState(contact.updatedAt);
  if (shown !== contact.updatedAt) {
    setShown(contact.updatedAt);
    setRows(toRows(contact.data ?? {}, fieldTypes));
  }
  const save = useApiMutation({
    mutationFn: (body: Partial<Pick<Contact, 'email' | 'subscribed' | 'data'>>) => data(api.PATCH('/contacts/{id}', { params: { path: { id: contact.id } }, body })),
    onSuccess: (updated) => {
      queryClient.setQueryData(qk.p(projectId, 'contacts', 'one', contact.id), updated);
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
    },
  });
  // 409: another contact of the project has this address; it belongs at the email field.
  const emailConflict = save.error instanceof ApiError && save.error.status === 409 ? save.error.message : undefined;
  return (
    <form
      key={contact.updatedAt}
      onSubmit={(e) => {
        e.preventDefault();
        const v = formValues(e.currentTarget);
        const built = fromRows(rows);
        if ('errors' in built) return setRowErrors(built.errors);
        setRowErrors({});
        const body: Partial<Contact> = {};
        const email = (v.email ?? '').trim();
        if (email !== contact.email) body.email = email;
        const subscribed = v.subscribed === 'on';
        if (subscribed !== contact.subscribed) body.subscribed = subscribed;
        const patch = dataPatch(contact.data ?? {}, built.data);
        if (Object.keys(patch).length) body.data = patch;
        void save.submit(body);
      }}
      noValidate
    >
      <TextField label="Email" name="email" type="email" defaultValue={contact.email} required error={emailConflict ?? fieldError(save.error, 'email')} />
      <CheckboxField
        label="Subscribed to marketing email"
        name="subscribed"
        defaultChecked={contact.subscribed}
        hint="Changing it records a contact.subscribed or contact.unsubscribed event."
        error={fieldError(save.error, 'subscribed')}
      />
      <DataFieldsEditor rows={rows} onRowsChange={setRows} errors={rowErrors} fieldTypes={fieldTypes} />
      <p className="field-hint">{`${KEY_SYNTAX_HINT} In segments: data.firstName.`}</p>
      {Object.keys(rowErrors).length > 0 && <p className="field-error" role="alert">Correct the marked fields.</p>}
      {fieldError(save.error, 'data') && (
        <p className="field-error" role="alert">
          {fieldError(save.error, 'data')}
        </p>
      )}
      {!emailConflict && <ErrorMessage error={save.error} fields={FIELDS} title="Could not save" />}
      {save.isSuccess && !save.isPending && <Notice>Saved.</Notice>}
      <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
        Save changes
      </Button>
    </form>
  );
}

const CONFIRMATION_LABELS = { pending: 'Confirmation pending', confirmed: 'Confirmed' } as const;

/** Double opt-in state, and the confirmation email again (at most one per 10 minutes: the API's 429 says how long to wait). */
function Confirmation({ contact }: { contact: Contact }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const resend = useApiMutation({
    mutationFn: () => data(api.POST('/contacts/{id}/confirmation', { params: { path: { id: contact.id } } })),
    onSuccess: (updated) => queryClient.setQueryData(qk.p(projectId, 'contacts', 'one', contact.id), updated),
  });
  const state = contact.confirmation;
  return (
    <>
      <p>
        {state ? <Badge tone={state === 'confirmed' ? 'good' : 'warn'}>{CONFIRMATION_LABELS[state]}</Badge> : 'Never asked to confirm.'}{' '}
        {contact.confirmedAt && <>Confirmed {formatDate(contact.confirmedAt)}.</>}
      </p>
      {!contact.subscribed && (
        <>
          <ErrorMessage error={resend.error} title="Could not send the confirmation email" />
          {resend.isSuccess && !resend.isPending && <Notice>Confirmation email sent.</Notice>}
          <Button onClick={() => resend.submit()} pending={resend.isPending} pendingLabel="Sending…">
            {state === 'pending' ? 'Resend confirmation' : 'Send confirmation email'}
          </Button>
        </>
      )}
    </>
  );
}

/** Mail this contact sent to the project's domains (the inbound listener), with its SPF/DKIM/DMARC verdicts. */
function ReceivedMail({ contactId }: { contactId: string }) {
  const inbound = useContactInbound(contactId);
  if (inbound.isPending) return <Loading label="Loading received mail…" />;
  if (inbound.isError) return <ErrorMessage error={inbound.error} title="Could not load the received mail" />;
  if (inbound.data.data.length === 0) return <p className="muted">No mail received from this contact.</p>;
  return (
    <ul className="timeline" aria-label="Received mail, newest first">
      {inbound.data.data.map((item) => (
        <li key={item.id}>
          <strong>{typeof item.data?.subject === 'string' && item.data.subject ? item.data.subject : '(no subject)'}</strong> <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
          <div>
            <Verdicts data={item.data} />
            {Array.isArray(item.data?.attachments) && item.data.attachments.length > 0 && <span className="muted"> {item.data.attachments.length} attachment(s)</span>}
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function ContactDetailPage() {
  const { contactId = '' } = useParams();
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const contact = useContact(contactId);
  const fieldTypes = useFieldTypes();
  const project = useProject(projectId);
  const back = (
    <Link to={projectPath(projectId, 'contacts')} className="btn btn-ghost">
      ← All contacts
    </Link>
  );
  if (contact.isPending) return <Loading label="Loading the contact…" />;
  if (contact.isError) {
    const missing = contact.error instanceof ApiError && contact.error.status === 404;
    return (
      <>
        {back}
        {missing ? <EmptyState title="Contact not found">It was deleted, or the link is wrong.</EmptyState> : <ErrorMessage error={contact.error} title="Could not load the contact" />}
      </>
    );
  }
  const c = contact.data;
  return (
    <>
      {back}
      <PageHeader
        title={c.email}
        description={
          <>
            {c.subscribed ? <Badge tone="good">Subscribed</Badge> : <Badge>Unsubscribed</Badge>} Added {formatDate(c.createdAt)}, changed {formatDate(c.updatedAt)}
          </>
        }
        actions={
          <>
            <ExportContactButton contact={c} />
            {project.data && project.data.role !== 'MEMBER' && <EraseContactButton contact={c} />}
            <ConfirmButton
              label="Delete contact"
              doneMessage="Contact deleted."
              title={`Delete ${c.email}?`}
              description="The contact and its events are removed for good. This cannot be undone."
              confirmLabel="Delete"
              onConfirm={async () => {
                await data(api.DELETE('/contacts/{id}', { params: { path: { id: c.id } } }));
                queryClient.removeQueries({ queryKey: qk.p(projectId, 'contacts', 'one', c.id) });
                await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
                navigate(projectPath(projectId, 'contacts'));
              }}
            />
          </>
        }
      />
      <div className="two-columns">
        <section className="panel" aria-labelledby="edit-heading">
          <h2 id="edit-heading">Details</h2>
          {fieldTypes.settled ? <EditContact contact={c} fieldTypes={fieldTypes.types} /> : <Loading label="Loading the fields…" />}
          <h3 id="confirmation-heading">Double opt-in</h3>
          <Confirmation contact={c} />
        </section>
        <section className="panel" aria-labelledby="consent-heading">
          <h2 id="consent-heading">Topics and snooze</h2>
          <ContactConsent contact={c} />
        </section>
        <section className="panel" aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">Timeline</h2>
          <ContactTimeline contactId={c.id} />
        </section>
        <section className="panel" aria-labelledby="inbound-heading">
          <h2 id="inbound-heading">Received mail</h2>
          <ReceivedMail contactId={c.id} />
        </section>
      </div>
    </>
  );
}
