import { useState } from 'react';
import { useProject } from '../../api/account';
import { data } from '../../api/client';
import { isJobFinished, useContactExport } from '../../api/contacts';
import type { ContactExportRequest } from '../../api/types';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/Feedback';
import { useApiMutation } from '../../lib/forms';
import { useApi, useProjectId } from '../../lib/project';
import { saveFile } from './ContactExport';

type Format = ContactExportRequest['format'];

/** One set of contacts the export can take: every contact, the list's filter, a segment's members. */
export interface ExportChoice {
  id: string;
  label: string;
  selection: Omit<ContactExportRequest, 'format'>;
  /** How many contacts it holds, when known: the progress shows a percentage. */
  expected?: number;
  /** Why this choice cannot be exported as shown (it is then left out). */
  unavailable?: string;
}

const FORMATS: Array<{ value: Format; label: string }> = [
  { value: 'csv', label: 'CSV (a column per data field)' },
  { value: 'ndjson', label: 'NDJSON (one contact per line, as the API shows it)' },
];

/**
 * "Export": the chosen contacts as a CSV or NDJSON file, made in the background (its progress,
 * then a download). Managers only, as the API says: a MEMBER does not see it.
 */
export function BulkExportButton({ choices }: { choices: ExportChoice[] }) {
  const projectId = useProjectId();
  const project = useProject(projectId);
  const [open, setOpen] = useState(false);
  if (project.data?.role !== 'OWNER' && project.data?.role !== 'ADMIN') return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Export</Button>
      <Modal open={open} onOpenChange={setOpen} title="Export contacts" description="The file holds personal data: keep it safe. It can be downloaded for 7 days.">
        <ExportForm choices={choices} />
      </Modal>
    </>
  );
}

function ExportForm({ choices }: { choices: ExportChoice[] }) {
  const api = useApi();
  const available = choices.filter((c) => !c.unavailable);
  const [choiceId, setChoiceId] = useState(available[0]?.id ?? '');
  const [format, setFormat] = useState<Format>('csv');
  const [job, setJob] = useState<{ id: string; expected?: number } | null>(null);
  const start = useApiMutation({
    mutationFn: (body: ContactExportRequest) => data(api.POST('/contacts/export', { body })),
    onSuccess: (answer) => setJob({ id: answer.jobId, expected: available.find((c) => c.id === choiceId)?.expected }),
  });
  const status = useContactExport(job?.id);
  const done = status.data;
  const download = useApiMutation({
    mutationFn: () => data(api.GET('/contacts/export/{jobId}/download', { params: { path: { jobId: job!.id } }, parseAs: 'blob' })),
    onSuccess: (file) => saveFile(file as Blob, `contacts-${job!.id}.${done?.format ?? format}`),
  });
  const chosen = available.find((c) => c.id === choiceId);

  if (job) {
    return (
      <div aria-live="polite">
        <ProgressBar
          label={done?.status === 'completed' ? 'Export ready' : 'Exporting contacts'}
          value={done?.status === 'completed' ? 1 : job.expected ? done?.rows : undefined}
          max={done?.status === 'completed' ? 1 : job.expected}
          detail={`${(done?.rows ?? 0).toLocaleString()} contacts written`}
        />
        {done?.status === 'failed' && <p className="field-error">The export failed{done.failureReason ? `: ${done.failureReason}` : ''}. Try again.</p>}
        {status.isError && <ErrorMessage error={status.error} title="Could not read the export's progress" />}
        <ErrorMessage error={download.error} title="Could not download the file" />
        <div className="dialog-actions">
          {isJobFinished(done) && (
            <Button onClick={() => setJob(null)} className="btn-small">
              New export
            </Button>
          )}
          {done?.status === 'completed' && (
            <Button variant="primary" onClick={() => download.submit()} pending={download.isPending} pendingLabel="Downloading…">
              Download {done.format.toUpperCase()}
            </Button>
          )}
        </div>
      </div>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) void start.submit({ format, ...chosen.selection });
      }}
    >
      <fieldset className="panel">
        <legend>Contacts</legend>
        {choices.map((c) => (
          <div key={c.id}>
            <label className="radio">
              <input type="radio" name="exportChoice" value={c.id} checked={choiceId === c.id} disabled={Boolean(c.unavailable)} onChange={() => setChoiceId(c.id)} /> {c.label}
            </label>
            {c.unavailable && <p className="muted">{c.unavailable}</p>}
          </div>
        ))}
      </fieldset>
      <fieldset className="panel">
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.value} className="radio">
            <input type="radio" name="exportFormat" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} /> {f.label}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={start.error} title="Could not start the export" />
      <div className="dialog-actions">
        <Button type="submit" variant="primary" disabled={!chosen} pending={start.isPending} pendingLabel="Starting…">
          Start export
        </Button>
      </div>
    </form>
  );
}
