import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountApi } from '../../api/account';
import { useBuiltInConfirmationEmail } from '../../api/contacts';
import { qk } from '../../api/queryKeys';
import { useTemplate, useTemplateList } from '../../api/templates';
import type { Project } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, SelectField, TextField } from '../../components/Fields';
import { Notice } from '../../components/Feedback';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { previewVariables, renderPreview } from '../templates/liquid-preview';

const SAMPLE_CONFIRM_URL = '#confirm';
const SAMPLE_EMAIL = 'ada@example.com';

/** A message rendered like the template editor's preview, with the project's name, a sample address and a placeholder link. */
function RenderedConfirmation({ subject, body, projectName, requireLink }: { subject: string; body: string; projectName: string; requireLink: boolean }) {
  const result = renderPreview(subject, body, { ...previewVariables({}, SAMPLE_EMAIL), confirmUrl: SAMPLE_CONFIRM_URL, confirmProject: projectName, confirmEmail: SAMPLE_EMAIL });
  if (!result.ok) return <p className="error-suggestion">The template does not render: {result.problem.message}</p>;
  const usesLink = /\{\{-?\s*confirmUrl\s*(\||-?\}\})/.test(body + subject);
  return (
    <div id="doi-preview">
      {requireLink && !usesLink && <p className="banner banner-warning">This template does not use {'{{confirmUrl}}'}: saving will be refused.</p>}
      <p className="preview-subject" aria-label="Rendered subject">
        {result.subject}
      </p>
      <iframe className="preview-frame" title="Confirmation email preview" sandbox="" srcDoc={result.html} />
    </div>
  );
}

/** The built-in message in the project's language, as the service sends it. */
function BuiltInConfirmationPreview({ project }: { project: Project }) {
  const builtIn = useBuiltInConfirmationEmail(project.language);
  if (builtIn.isPending) return <p id="doi-preview">Loading the preview…</p>;
  if (builtIn.isError) return <ErrorMessage error={builtIn.error} title="Could not load the built-in message" />;
  return (
    <>
      <p className="hint">The built-in message, here in the project's language; each contact gets it in its own (data.locale) when Mailroom has it.</p>
      <RenderedConfirmation subject={builtIn.data.subject} body={builtIn.data.body} projectName={project.name} requireLink={false} />
    </>
  );
}

/** The chosen template (or the built-in message) rendered like the template editor's preview, with a placeholder confirmation link. */
function ConfirmationPreview({ templateId, project }: { templateId: string; project: Project }) {
  const template = useTemplate(templateId || undefined);
  if (!templateId) return <BuiltInConfirmationPreview project={project} />;
  if (template.isPending) return <p id="doi-preview">Loading the preview…</p>;
  if (template.isError) return <ErrorMessage error={template.error} title="Could not load the template" />;
  return <RenderedConfirmation subject={template.data.subject} body={template.data.body} projectName={project.name} requireLink />;
}

/** Double opt-in: on or off, the confirmation template (or the built-in message) and where the page redirects. */
export function DoubleOptInSettings({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const templates = useTemplateList({ page: 1, sort: 'name', dir: 'asc' });
  const [templateId, setTemplateId] = useState(project.doubleOptIn.templateId ?? '');
  const save = useApiMutation({
    mutationFn: (body: NonNullable<Parameters<typeof accountApi.updateProject>[1]['doubleOptIn']>) => accountApi.updateProject(project.id, { doubleOptIn: body }),
    onSuccess: (updated) => queryClient.setQueryData(qk.project(project.id), updated),
  });
  const readOnly = project.role === 'MEMBER';
  return (
    <section className="panel" aria-labelledby="doi-heading">
      <h2 id="doi-heading">Double opt-in</h2>
      <form
        key={project.updatedAt}
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          void save.submit({ enabled: v.doiEnabled === 'on', templateId: v.doiTemplate || null, redirectUrl: (v.doiRedirect ?? '').trim() || null });
        }}
        noValidate
      >
        <CheckboxField
          label="Ask new subscribers to confirm by email"
          name="doiEnabled"
          defaultChecked={project.doubleOptIn.enabled}
          disabled={readOnly}
          hint="Sign-ups through /v1/track with the public key (and calls with doubleOptIn: true) stay unsubscribed until the contact clicks the link."
          error={fieldError(save.error, 'doubleOptIn.enabled')}
        />
        <SelectField
          label="Confirmation email"
          name="doiTemplate"
          value={templateId}
          onChange={(e) => setTemplateId(e.currentTarget.value)}
          disabled={readOnly}
          aria-describedby="doi-preview"
          error={fieldError(save.error, 'doubleOptIn.templateId')}
          hint="A template must use {{confirmUrl}}."
        >
          <option value="">Built-in message (localized)</option>
          {(templates.data?.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Redirect after confirming"
          name="doiRedirect"
          type="url"
          defaultValue={project.doubleOptIn.redirectUrl ?? ''}
          placeholder="https://example.com/thanks"
          disabled={readOnly}
          hint="Optional: where the confirmation page sends the contact; empty shows a thank-you page."
          error={fieldError(save.error, 'doubleOptIn.redirectUrl')}
        />
        <h3>Preview</h3>
        <ConfirmationPreview templateId={templateId} project={project} />
        <ErrorMessage error={save.error} fields={['doubleOptIn.enabled', 'doubleOptIn.templateId', 'doubleOptIn.redirectUrl']} title="Could not save" />
        {save.isSuccess && <Notice>Saved.</Notice>}
        <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…" disabled={readOnly}>
          Save double opt-in
        </Button>
      </form>
    </section>
  );
}
