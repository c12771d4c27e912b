import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useMe } from '../../api/account';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { fieldError, useApiMutation } from '../../lib/forms';
import { useApi, useProjectId } from '../../lib/project';
import { Button } from '../Button';
import { ErrorMessage } from '../ErrorMessage';
import { Loading, Notice } from '../Feedback';
import { SelectField, TextField } from '../Fields';

/** What is previewed and test-sent: a saved template or a campaign (any status). */
export interface AsContactTarget {
  kind: 'templates' | 'campaigns';
  id: string;
  /** Changes when the saved sources change (their `updatedAt`), so the preview is fetched again. */
  version: string;
}

const WIDTHS = { desktop: 640, mobile: 375 } as const;
type Width = keyof typeof WIDTHS;

/** Contacts whose email contains `search` (the first 10): the picker's options. */
function useContactSearch(search: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'picker', search),
    queryFn: ({ signal }) => data(api.GET('/contacts', { params: { query: { search: search || undefined, limit: 10 } }, signal })),
    placeholderData: (previous) => previous,
  });
}

/** A search field and the matching contacts as a native select. */
function ContactPicker({ value, onChange }: { value: string; onChange: (contactId: string) => void }) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const found = useContactSearch(deferred);
  const contacts = found.data?.data ?? [];
  return (
    <div className="inline-form">
      <TextField label="Find a contact" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="part of their email" />
      <SelectField label="As contact" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{contacts.length ? 'Choose a contact…' : 'No matching contact'}</option>
        {contacts.map((c) => (
          <option key={c.id} value={c.id}>
            {c.email}
          </option>
        ))}
      </SelectField>
      <ErrorMessage error={found.error} title="Could not search contacts" />
    </div>
  );
}

function RenderedPreview({ target, contactId }: { target: AsContactTarget; contactId: string }) {
  const api = useApi();
  const projectId = useProjectId();
  const [width, setWidth] = useState<Width>('desktop');
  const preview = useQuery({
    queryKey: qk.p(projectId, target.kind, target.id, 'preview', contactId, target.version),
    queryFn: () => {
      const init = { params: { path: { id: target.id } }, body: { contactId } };
      return data(target.kind === 'templates' ? api.POST('/templates/{id}/preview', init) : api.POST('/campaigns/{id}/preview', init));
    },
  });
  if (preview.isPending) return <Loading label="Rendering…" />;
  if (preview.isError) return <ErrorMessage error={preview.error} title="Could not render the preview" />;
  return (
    <>
      <fieldset className="button-row" aria-label="Preview width">
        {(Object.keys(WIDTHS) as Width[]).map((w) => (
          <label key={w}>
            <input type="radio" name={`width-${target.id}`} value={w} checked={width === w} onChange={() => setWidth(w)} /> {w === 'desktop' ? 'Desktop' : 'Mobile'} ({WIDTHS[w]} px)
          </label>
        ))}
      </fieldset>
      <p className="preview-subject" aria-label="Subject as the contact">
        Subject: {preview.data.subject}
      </p>
      {/* No allow-scripts: the email's HTML is shown, never run. */}
      <iframe className="preview-frame" title={`Email as the contact (${width})`} sandbox="" srcDoc={preview.data.html} style={{ width: WIDTHS[width], maxWidth: '100%' }} />
    </>
  );
}

function TestSend({ target, contactId }: { target: AsContactTarget; contactId: string }) {
  const api = useApi();
  const me = useMe();
  const [to, setTo] = useState<string | null>(null);
  const recipient = to ?? me.data?.email ?? '';
  const send = useApiMutation({
    mutationFn: (email: string) => {
      const init = { params: { path: { id: target.id } }, body: { email, contactId: contactId || null } };
      return data(target.kind === 'templates' ? api.POST('/templates/{id}/test', init) : api.POST('/campaigns/{id}/test', init));
    },
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send.submit(recipient.trim());
      }}
      noValidate
    >
      <TextField label="Send the test to" type="email" value={recipient} onChange={(e) => setTo(e.target.value)} error={fieldError(send.error, 'email')} />
      <Button type="submit" pending={send.isPending} pendingLabel="Sending…">
        {contactId ? 'Send test as contact' : 'Send test'}
      </Button>
      <ErrorMessage error={send.error} fields={['email']} title="The test was not sent" />
      {send.data && (
        <Notice>
          Test sent to {recipient}. It creates no contact and counts in no statistic. Email id: {send.data.emailId}
        </Notice>
      )}
    </form>
  );
}

/**
 * Preview and test send "as a contact": the email the API renders for a chosen contact (the
 * pipeline's render: footer and headers included, untracked), at desktop and mobile widths, and a
 * test copy with that contact's data to any address (default: the signed-in user's).
 */
export function AsContactPanel({ target }: { target: AsContactTarget }) {
  const [contactId, setContactId] = useState('');
  const headingId = `as-contact-${target.id}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Preview and test as a contact</h2>
      <p className="muted">The saved version, rendered by the service as it sends it (with the unsubscribe footer of marketing mail).</p>
      <ContactPicker value={contactId} onChange={setContactId} />
      {contactId && <RenderedPreview target={target} contactId={contactId} />}
      <TestSend target={target} contactId={contactId} />
    </section>
  );
}
