import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { isJobFinished, uploadContactsCsv, useContactFields, useImportJob } from '../../api/contacts';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import type { ImportJob } from '../../api/contacts';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { Badge, PageHeader, ProgressBar } from '../../components/Feedback';
import { useApiMutation } from '../../lib/forms';
import { projectPath, useProjectId } from '../../lib/project';
import { DataTable } from '../../components/DataTable';
import { KEY_SYNTAX_HINT } from '../../lib/liquid-keys';
import { type CsvPreview, initialColumns, keyProblem, type MappedColumn, previewCsv, toMapping } from './columnMapping';
import { ColumnMappingTable } from './ColumnMappingTable';

const MAX_BYTES = 5 * 1024 * 1024;

const REASONS: Record<string, string> = {
  invalid_email: 'The email address is not valid',
  missing_email: 'The email column is empty',
  duplicate_in_file: 'The address appears earlier in the file (merged into that row)',
};

const UPLOAD_REASONS: Record<string, string> = {
  empty: 'The file is empty.',
  binary: 'This is not a text file. Export the sheet as CSV (comma-separated, UTF-8).',
  encoding: 'The file is not UTF-8. Save it again as "CSV UTF-8".',
  no_header: 'The first line must be a header row naming the columns.',
  no_email_column: 'No column is named "email". Rename the column with the addresses to email.',
};

/** Why the upload was refused, in words, for the file field. */
function uploadProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const reason = typeof error.details?.reason === 'string' ? error.details.reason : undefined;
  if (reason && UPLOAD_REASONS[reason]) return UPLOAD_REASONS[reason];
  if (error.status === 413) return 'The file is larger than 5 MB. Split it into smaller files.';
  if (error.status === 400 || error.status === 415 || error.status === 422) return error.message;
  return undefined;
}

function JobResult({ job }: { job: ImportJob }) {
  const finished = isJobFinished(job);
  return (
    <section className="panel" aria-label="Import progress">
      <ProgressBar
        label={finished ? (job.status === 'completed' ? 'Import finished' : 'Import failed') : 'Importing contacts'}
        value={job.status === 'queued' || job.totalRows === 0 ? (finished ? 1 : undefined) : job.processedRows ?? 0}
        max={job.status === 'queued' || job.totalRows === 0 ? 1 : job.totalRows}
        detail={`${(job.processedRows ?? 0).toLocaleString()} of ${job.totalRows.toLocaleString()} rows read`}
      />
      <dl className="dl-grid" aria-label="Import counts">
        <dt>Status</dt>
        <dd>
          <Badge tone={job.status === 'completed' ? 'good' : job.status === 'failed' ? 'bad' : 'info'}>{job.status}</Badge>
        </dd>
        <dt>New contacts</dt>
        <dd>{job.imported.toLocaleString()}</dd>
        <dt>Updated contacts</dt>
        <dd>{job.updated.toLocaleString()}</dd>
        <dt>Rows skipped</dt>
        <dd>{job.skipped.toLocaleString()}</dd>
      </dl>
      {job.status === 'failed' && (
        <p className="field-error" role="alert">
          The import stopped: {job.failureReason ?? 'an unexpected error'}. Rows before it were saved; fix the file and import it again (rows already imported are updated, not duplicated).
        </p>
      )}
      {job.errors.length > 0 && (
        <>
          <h2>Rows with problems ({job.errors.length.toLocaleString()})</h2>
          <p className="muted">Row numbers count the header as row 1, as a spreadsheet shows them.</p>
          <DataTable caption="Rows with problems" columns={['Row', 'Email', 'Problem']}>
            {job.errors.slice(0, 500).map((e) => (
              <tr key={`${e.row}-${e.reason}`}>
                <td>{e.row}</td>
                <td>{e.email || <span className="muted">(empty)</span>}</td>
                <td>{REASONS[e.reason] ?? e.reason}</td>
              </tr>
            ))}
          </DataTable>
          {job.errors.length > 500 && <p className="muted">The first 500 of {job.errors.length.toLocaleString()} are shown.</p>}
        </>
      )}
    </section>
  );
}

/** 422 items of the mapping part, by the column header they name (`mapping.<header>`). */
function mappingErrors(error: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (error instanceof ApiError) for (const e of error.fieldErrors) if (e.field?.startsWith('mapping.')) out.set(e.field.slice('mapping.'.length), e.message);
  return out;
}

export default function ImportPage() {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [localError, setLocalError] = useState<string>();
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [columns, setColumns] = useState<MappedColumn[]>([]);
  const fields = useContactFields();
  const fieldTypes = new Map((fields.data?.fields ?? []).flatMap((f) => (f.field && f.type ? [[f.field, f.type] as const] : [])));
  const upload = useApiMutation({ mutationFn: (v: { file: File; mapping: Record<string, string | null> }) => uploadContactsCsv(projectId, v.file, v.mapping) });
  const job = useImportJob(upload.data?.jobId);
  const finished = isJobFinished(job.data);
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
  }, [finished, projectId, queryClient]);
  const running = upload.isPending || (Boolean(upload.data) && !finished);
  const fileError = localError ?? uploadProblem(upload.error);
  const serverMappingErrors = mappingErrors(upload.error);
  const mappingInvalid = columns.some((c) => keyProblem(c, columns) !== undefined);

  /** The mapping step's table comes from the file's first rows, read here (the file is at most 5 MB). */
  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setLocalError(undefined);
    setPreview(null);
    setColumns([]);
    upload.reset();
    if (!chosen || chosen.size > MAX_BYTES) return;
    const read = previewCsv(await chosen.slice(0, 256 * 1024).text());
    if (!read) return setLocalError(UPLOAD_REASONS.no_header);
    const next = initialColumns(read);
    if (!next.some((c) => c.isEmail)) return setLocalError(UPLOAD_REASONS.no_email_column);
    setPreview(read);
    setColumns(next);
  };

  return (
    <>
      <Link to={projectPath(projectId, 'contacts')} className="btn btn-ghost">
        ← All contacts
      </Link>
      <PageHeader title="Import contacts" description="Add or update many contacts at once from a CSV file (at most 5 MB)." />
      {/* The mapping table needs the width: with a file chosen, the notes on the format go below the form. */}
      <div className={preview ? undefined : 'two-columns'} style={preview ? { display: 'grid', gap: '1.25rem' } : undefined}>
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) return setLocalError('Choose a CSV file first.');
            if (file.size > MAX_BYTES) return setLocalError('The file is larger than 5 MB. Split it into smaller files.');
            if (mappingInvalid) return;
            setLocalError(undefined);
            upload.reset();
            void upload.submit({ file, mapping: toMapping(columns) });
          }}
          noValidate
        >
          <TextField
            label="CSV file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void choose(e.target.files?.[0] ?? null)}
            error={fileError}
          />
          {preview && (
            <section aria-labelledby="mapping-heading">
              <h2 id="mapping-heading">Columns</h2>
              <p className="muted">
                Each column is stored under the key on its row: rename it, or skip the column. Keys without spaces are the simplest to use. {KEY_SYNTAX_HINT}
              </p>
              <ColumnMappingTable preview={preview} columns={columns} fieldTypes={fieldTypes} serverErrors={serverMappingErrors} onChange={setColumns} />
            </section>
          )}
          {!fileError && <ErrorMessage error={upload.error} fields={[...serverMappingErrors.keys()].map((h) => `mapping.${h}`)} title="Could not upload" />}
          <Button type="submit" variant="primary" pending={running} pendingLabel={upload.isPending ? 'Uploading…' : 'Importing…'} disabled={!file || mappingInvalid}>
            Import
          </Button>
        </form>
        <section className="panel" aria-labelledby="format-heading">
          <h2 id="format-heading">The file</h2>
          <ul>
            <li>
              A header row, then one contact per row; one column must be named <code>email</code>.
            </li>
            <li>
              Every other column becomes custom data under the key shown for it once you choose the file: <code>First Name</code> is suggested as{' '}
              <code>firstName</code>, used in templates as <code>{'{{firstName}}'}</code>. A key you keep with a space is used as{' '}
              <code>{'{{data["first name"]}}'}</code>.
            </li>
            <li>Numbers, true/false and ISO dates are typed; everything else stays text.</li>
            <li>An address that exists already is updated (its subscription is kept); new contacts are subscribed.</li>
          </ul>
          <pre>
            <code>{'email,First Name,plan\nada@example.com,Ada,pro\ngrace@example.com,Grace,free'}</code>
          </pre>
        </section>
      </div>
      {job.data && <JobResult job={job.data} />}
      {job.isError && <ErrorMessage error={job.error} title="Could not read the import's progress" />}
      {finished && (
        <p>
          <Link className="btn btn-primary" to={projectPath(projectId, 'contacts')}>
            See the contacts
          </Link>
        </p>
      )}
    </>
  );
}
