import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { accountApi, useProject } from '../../api/account';
import { qk } from '../../api/queryKeys';
import type { Project, ProjectSettings, TrackingMode } from '../../api/types';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField, TextField } from '../../components/Fields';
import { Notice } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { useProjectId } from '../../lib/project';
import { DoubleOptInSettings } from './DoubleOptInSettings';
import { RetentionSettings } from './RetentionSettings';

const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'es', label: 'Español' },
  { value: 'nl', label: 'Nederlands' },
  { value: 'pt', label: 'Português' },
  { value: 'it', label: 'Italiano' },
];

const TRACKING: { value: TrackingMode; label: string }[] = [
  { value: 'ENABLED', label: 'Track opens and clicks of every email' },
  { value: 'MARKETING_ONLY', label: 'Track marketing email only' },
  { value: 'DISABLED', label: 'Do not track opens and clicks' },
];

/** The form's sender fields as the API's `defaultFrom`: no address clears it. */
function defaultFromOf(v: Record<string, string>): NonNullable<ProjectSettings['defaultFrom']> | null {
  const email = (v.defaultFromEmail ?? '').trim();
  return email ? { email, name: (v.defaultFromName ?? '').trim() || null } : null;
}

const sameSender = (a: Project['defaultFrom'], b: Project['defaultFrom']) =>
  a?.email?.toLowerCase() === b?.email?.toLowerCase() && (a?.name ?? null) === (b?.name ?? null);

/** The project's settings; `children` (further settings panels) come before the project's deletion, which stays last. */
export function SettingsForm({ project, children }: { project: Project; children?: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const save = useApiMutation({
    mutationFn: (body: ProjectSettings) => accountApi.updateProject(project.id, body),
    onSuccess: (updated) => {
      queryClient.setQueryData(qk.project(project.id), updated);
      void queryClient.invalidateQueries({ queryKey: qk.projects });
    },
  });
  const enable = useApiMutation({
    mutationFn: () => accountApi.updateProject(project.id, { disabled: false }),
    onSuccess: (updated) => queryClient.setQueryData(qk.project(project.id), updated),
  });
  const readOnly = project.role === 'MEMBER';
  return (
    <>
      <form
        className="panel"
        key={project.updatedAt}
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          const defaultFrom = defaultFromOf(v);
          // Sent only when changed: a sender whose domain was deleted since must not block saving the rest.
          void save.submit({
            name: (v.name ?? '').trim(),
            tracking: v.tracking as TrackingMode,
            language: v.language as ProjectSettings['language'],
            ...(sameSender(defaultFrom, project.defaultFrom) ? {} : { defaultFrom }),
          });
        }}
        noValidate
      >
        {readOnly && <p className="banner banner-info">Only owners and admins change these settings.</p>}
        <TextField label="Project name" name="name" defaultValue={project.name} required maxLength={100} disabled={readOnly} error={fieldError(save.error, 'name')} />
        <SelectField label="Open and click tracking" name="tracking" defaultValue={project.tracking} disabled={readOnly} error={fieldError(save.error, 'tracking')} hint="A single /v1/send can override it with tracking: true or false.">
          {TRACKING.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Language"
          name="language"
          defaultValue={project.language}
          disabled={readOnly}
          error={fieldError(save.error, 'language')}
          hint="Of the unsubscribe footer and pages; a contact's data.locale wins."
        >
          {LANGUAGES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Default sender address"
          name="defaultFromEmail"
          type="email"
          defaultValue={project.defaultFrom?.email ?? ''}
          maxLength={320}
          placeholder="hello@your-verified-domain.com"
          disabled={readOnly}
          error={fieldError(save.error, 'defaultFrom.email')}
          hint="Sends that name no sender (no from, no template, as Plunk's SDK sends) come from it. On a verified domain of this project; leave it empty to refuse such sends."
        />
        <TextField
          label="Default sender name"
          name="defaultFromName"
          defaultValue={project.defaultFrom?.name ?? ''}
          maxLength={200}
          disabled={readOnly}
          error={fieldError(save.error, 'defaultFrom.name')}
        />
        <ErrorMessage error={save.error} fields={['name', 'tracking', 'language', 'defaultFrom']} title="Could not save" />
        {save.isSuccess && <Notice>Saved.</Notice>}
        <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…" disabled={readOnly}>
          Save settings
        </Button>
      </form>
      {project.disabled && (
        <section className="panel">
          <h2>The project is disabled</h2>
          <p>Reason: {project.disabledReason ?? 'not given'}. Nothing is sent while it is disabled. Fix the cause (see Security), then enable it again.</p>
          <ErrorMessage error={enable.error} title="Could not enable" />
          <Button variant="primary" onClick={() => enable.submit()} pending={enable.isPending} pendingLabel="Enabling…" disabled={readOnly}>
            Enable the project
          </Button>
        </section>
      )}
      {children}
      {!readOnly && (
        <section className="panel">
          <h2>Delete the project</h2>
          <p>Its contacts, templates, campaigns, domains and keys are deleted with it.</p>
          <ConfirmButton
            label="Delete project"
            title={`Delete ${project.name}?`}
            description="Everything in it is deleted for good, and its API keys stop working at once."
            confirmLabel="Delete project"
            onConfirm={async () => {
              await accountApi.deleteProject(project.id);
              queryClient.removeQueries({ queryKey: qk.project(project.id) });
              await queryClient.invalidateQueries({ queryKey: qk.projects });
              navigate('/');
            }}
          />
        </section>
      )}
    </>
  );
}

export default function GeneralSettings() {
  const projectId = useProjectId();
  const project = useProject(projectId);
  return (
    <QueryView query={project}>
      {(p) => (
        <SettingsForm project={p}>
          <DoubleOptInSettings project={p} />
          <RetentionSettings project={p} />
        </SettingsForm>
      )}
    </QueryView>
  );
}
