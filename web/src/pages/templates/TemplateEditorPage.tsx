import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDomains } from '../../api/domains';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import { data } from '../../api/client';
import { EMAIL_TYPES, useTemplate } from '../../api/templates';
import type { EmailType, Template } from '../../api/types';
import { Button } from '../../components/Button';
import HtmlLiquidEditor from '../../components/HtmlLiquidEditor';
import { DISCARD_CHANGES, UnsavedChangesPrompt } from '../../components/UnsavedChangesPrompt';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField, TextAreaField, TextField } from '../../components/Fields';
import { EmptyState, Loading, Notice, PageHeader } from '../../components/Feedback';
import { fieldError, parseJsonObject, useApiMutation } from '../../lib/forms';
import { KEY_SYNTAX_HINT } from '../../lib/liquid-keys';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { previewVariables, renderPreview } from './liquid-preview';
import { AsContactPanel } from '../../components/previews/AsContact';

const FIELDS = ['name', 'description', 'subject', 'body', 'from', 'fromName', 'replyTo', 'type'] as const;

const STARTER_BODY = `<h1>Hello {{firstName ?? "there"}}</h1>
<p>Thanks for joining {{company ?? "us"}}.</p>
<p><a href="https://example.com">Get started</a></p>`;

const SAMPLE = `{
  "firstName": "Ada",
  "company": "Analytical Engines"
}`;

interface Draft {
  name: string;
  description: string;
  subject: string;
  body: string;
  from: string;
  fromName: string;
  replyTo: string;
  type: EmailType;
}

const toDraft = (t?: Template): Draft => ({
  name: t?.name ?? '',
  description: t?.description ?? '',
  subject: t?.subject ?? 'Welcome, {{firstName ?? "friend"}}',
  body: t?.body ?? STARTER_BODY,
  from: t?.from ?? '',
  fromName: t?.fromName ?? '',
  replyTo: t?.replyTo ?? '',
  type: t?.type ?? 'MARKETING',
});

/** 403 DOMAIN_NOT_VERIFIED is about the sender address, though it names no field. */
function fromError(error: unknown): string | undefined {
  if (error instanceof ApiError && error.code === 'DOMAIN_NOT_VERIFIED') return `${error.message}. Add and verify the domain under Domains.`;
  return fieldError(error, 'from');
}


function Preview({ subject, body, sampleText, email }: { subject: string; body: string; sampleText: string; email: string }) {
  const deferred = useDeferredValue({ subject, body, sampleText, email });
  const sample = parseJsonObject(deferred.sampleText);
  const result = useMemo(
    () => ('error' in sample ? null : renderPreview(deferred.subject, deferred.body, previewVariables(sample.value, deferred.email || 'ada@example.com'))),
    [deferred.subject, deferred.body, deferred.email, sample],
  );
  if ('error' in sample) return <p className="field-error">The sample data is not usable: {sample.error}</p>;
  if (!result) return null;
  if (!result.ok) {
    const where = result.problem.field === 'subject' ? 'the subject' : 'the body';
    return (
      <div className="error-message" role="alert" aria-label="Template error">
        <p>
          <strong>{result.problem.line ? `Line ${result.problem.line} of ${where}` : `In ${where}`}:</strong> {result.problem.message}
        </p>
        <p className="error-suggestion">Fix it to see the preview; the template cannot be saved until it parses.</p>
      </div>
    );
  }
  return (
    <>
      <p className="preview-subject" aria-label="Rendered subject">
        Subject: {result.subject}
      </p>
      {/* No allow-scripts: the email's HTML is shown, never run. */}
      <iframe className="preview-frame" title="Email preview" sandbox="" srcDoc={result.html} />
    </>
  );
}

function Editor({ template }: { template?: Template }) {
  const api = useApi();
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const domains = useDomains();
  const [draft, setDraft] = useState<Draft>(() => toDraft(template));
  const [sampleText, setSampleText] = useState(SAMPLE);
  const [previewEmail, setPreviewEmail] = useState('ada@example.com');
  const [lookup, setLookup] = useState('');
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const save = useApiMutation({
    mutationFn: (d: Draft) => {
      const optional = (v: string) => (v.trim() ? v.trim() : template ? null : undefined);
      const body = {
        name: d.name.trim(),
        subject: d.subject,
        body: d.body,
        from: d.from.trim(),
        type: d.type,
        description: optional(d.description),
        fromName: optional(d.fromName),
        replyTo: optional(d.replyTo),
      };
      return template ? data(api.PATCH('/templates/{id}', { params: { path: { id: template.id } }, body })) : data(api.POST('/templates', { body }));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(qk.p(projectId, 'templates', 'one', saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'templates', 'list') });
      if (!template) navigate(projectPath(projectId, 'templates', saved.id), { replace: true });
    },
  });
  const duplicate = useApiMutation({
    mutationFn: () => data(api.POST('/templates/{id}/duplicate', { params: { path: { id: template!.id } } })),
    onSuccess: (copy) => {
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'templates', 'list') });
      navigate(projectPath(projectId, 'templates', copy.id));
    },
  });
  const loadContact = useApiMutation({
    mutationFn: (email: string) => data(api.GET('/contacts', { params: { query: { search: email, limit: 1 } } })),
    onSuccess: (page) => {
      const found = page.data[0];
      if (!found) return;
      setSampleText(JSON.stringify(found.data ?? {}, null, 2));
      setPreviewEmail(found.email);
    },
  });
  const dirty = JSON.stringify(draft) !== JSON.stringify(toDraft(template));
  const verified = domains.data?.filter((d) => d.verified || d.status === 'verified').map((d) => d.domain) ?? [];

  return (
    <>
      <Link to={projectPath(projectId, 'templates')} className="btn btn-ghost">
        ← All templates
      </Link>
      <PageHeader
        title={template ? template.name : 'New template'}
        description={template ? `Used with POST /v1/send as "template": "${template.id}"` : 'Write the email; the preview updates as you type.'}
        actions={
          template && (
            <>
              <Button onClick={() => duplicate.submit()} pending={duplicate.isPending} pendingLabel="Duplicating…">
                Duplicate
              </Button>
              <ConfirmButton
                label="Delete"
                doneMessage="Template deleted."
                title={`Delete ${template.name}?`}
                description="Campaigns and workflow steps that use it stop working. This cannot be undone."
                confirmLabel="Delete template"
                onConfirm={async () => {
                  await data(api.DELETE('/templates/{id}', { params: { path: { id: template.id } } }));
                  await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'templates') });
                  navigate(projectPath(projectId, 'templates'), { state: DISCARD_CHANGES });
                }}
              />
            </>
          )
        }
      />
      <ErrorMessage error={duplicate.error} title="Could not duplicate" />
      <UnsavedChangesPrompt when={dirty && !save.isPending && !duplicate.isPending} />
      <div className="two-columns">
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
            void save.submit(draft);
          }}
          noValidate
        >
          <div className="form-grid">
            <TextField label="Name" value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} hint="Only you see it." error={fieldError(save.error, 'name')} />
            <SelectField
              label="Type"
              value={draft.type}
              onChange={(e) => set('type', e.target.value as EmailType)}
              hint={EMAIL_TYPES.find((t) => t.value === draft.type)?.help}
              error={fieldError(save.error, 'type')}
            >
              {EMAIL_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </SelectField>
            <TextField
              label="From address"
              type="email"
              value={draft.from}
              onChange={(e) => set('from', e.target.value)}
              required
              placeholder={verified[0] ? `hello@${verified[0]}` : 'hello@yourdomain.com'}
              hint={verified.length ? `Verified domains: ${verified.join(', ')}` : 'Needs a verified domain (see Domains).'}
              error={fromError(save.error)}
            />
            <TextField label="From name" value={draft.fromName} onChange={(e) => set('fromName', e.target.value)} placeholder="Acme" error={fieldError(save.error, 'fromName')} />
            <TextField label="Reply-to" type="email" value={draft.replyTo} onChange={(e) => set('replyTo', e.target.value)} error={fieldError(save.error, 'replyTo')} />
            <TextField label="Description" value={draft.description} onChange={(e) => set('description', e.target.value)} error={fieldError(save.error, 'description')} />
          </div>
          <TextField label="Subject" value={draft.subject} onChange={(e) => set('subject', e.target.value)} required error={fieldError(save.error, 'subject')} />
          <div className={fieldError(save.error, 'body') ? 'field field-invalid' : 'field'}>
            <span className="field-label" id="body-label">
              <strong>Body (HTML)</strong>
            </span>
            <HtmlLiquidEditor value={draft.body} onChange={(value) => set('body', value)} label="Body (HTML)" imageUpload />
            <p className="field-hint">
              {KEY_SYNTAX_HINT} Nested {'{{profile.tier}}'}, with a default {'{{firstName ?? "friend"}}'}; also {'{{email}}'}, {'{{unsubscribeUrl}}'}. Liquid tags and filters work.
            </p>
            {fieldError(save.error, 'body') && (
              <p className="field-error" role="alert">
                {fieldError(save.error, 'body')}
              </p>
            )}
          </div>
          <ErrorMessage error={save.error} fields={FIELDS} title="Could not save" />
          {save.isSuccess && !dirty && <Notice>Saved.</Notice>}
          <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
            {template ? 'Save changes' : 'Create template'}
          </Button>
        </form>
        <div>
          <section className="panel" aria-labelledby="preview-heading">
            <h2 id="preview-heading">Preview</h2>
            <Preview subject={draft.subject} body={draft.body} sampleText={sampleText} email={previewEmail} />
          </section>
          <section className="panel" aria-labelledby="sample-heading">
            <h2 id="sample-heading">Sample contact</h2>
            <TextField label="Preview as (email)" type="email" value={previewEmail} onChange={(e) => setPreviewEmail(e.target.value)} />
            <TextAreaField label="Sample data (JSON)" value={sampleText} onChange={(e) => setSampleText(e.target.value)} rows={6} />
            <form
              className="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (lookup.trim()) void loadContact.submit(lookup.trim());
              }}
            >
              <TextField label="Use a contact's data" type="search" value={lookup} onChange={(e) => setLookup(e.target.value)} placeholder="their email" />
              <Button type="submit" pending={loadContact.isPending} pendingLabel="Looking…">
                Load
              </Button>
            </form>
            {loadContact.isSuccess && loadContact.data.data.length === 0 && <p className="field-error">No contact matches {lookup}.</p>}
            <ErrorMessage error={loadContact.error} title="Could not load the contact" />
          </section>
          {template ? (
            <AsContactPanel target={{ kind: 'templates', id: template.id, version: template.updatedAt }} />
          ) : (
            <EmptyState title="Preview and test as a contact">Create the template first; then you can preview it as a contact and send yourself a test.</EmptyState>
          )}
        </div>
      </div>
    </>
  );
}

export default function TemplateEditorPage() {
  const { templateId } = useParams();
  const template = useTemplate(templateId);
  if (!templateId) return <Editor />;
  if (template.isPending) return <Loading label="Loading the template…" />;
  if (template.isError) {
    const missing = template.error instanceof ApiError && template.error.status === 404;
    return missing ? <EmptyState title="Template not found">It was deleted, or the link is wrong.</EmptyState> : <ErrorMessage error={template.error} title="Could not load the template" />;
  }
  return <Editor key={template.data.id} template={template.data} />;
}
