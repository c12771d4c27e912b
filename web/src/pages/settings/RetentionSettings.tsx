import { useQueryClient } from '@tanstack/react-query';
import { accountApi, useDataHeld } from '../../api/account';
import { qk } from '../../api/queryKeys';
import type { Project } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TextField } from '../../components/Fields';
import { Notice } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formatDate, formatNumber } from '../../lib/format';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';

type Retention = Project['retention'];
type RetentionKey = keyof Retention;

const PERIODS: Array<{ key: RetentionKey; label: string; hint: string }> = [
  { key: 'emailContentDays', label: 'Email content', hint: 'Default 30 days. Past it an email keeps its subject, recipient, status and counters, but its HTML, text, headers, attachments and variables are deleted.' },
  { key: 'inboundDays', label: 'Received mail', hint: 'Default 30 days. Messages received over SMTP (the record and the raw message) are deleted.' },
  { key: 'eventsDays', label: 'Events', hint: 'Default: kept forever. Statistics of older periods stay as totals.' },
  { key: 'emailsDays', label: 'Email records', hint: 'Default: kept forever. Campaign statistics stay as totals.' },
];

const FIELDS = PERIODS.map((p) => `retention.${p.key}`);

/** A field's value for the API: blank keeps the data forever (null); a whole number is days; anything else goes as typed, for the service to refuse with its reason. */
function daysOf(value: string | undefined): number | string | null {
  const v = (value ?? '').trim();
  if (v === '') return null;
  return /^\d+$/.test(v) ? Number(v) : v;
}

const TABLE_LABELS: Record<string, string> = {
  events: 'Events',
  emails: 'Email records',
  emailContents: 'Email content',
  inboundMessages: 'Received mail',
  webhookDeliveries: 'Webhook deliveries',
  contacts: 'Contacts',
};

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${formatNumber(value)} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** How long each kind of data is kept; owners and admins change it, members read it. */
export function RetentionSettings({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const save = useApiMutation({
    mutationFn: (retention: Record<RetentionKey, number | string | null>) => accountApi.updateProject(project.id, { retention: retention as Retention }),
    onSuccess: (updated) => queryClient.setQueryData(qk.project(project.id), updated),
  });
  const readOnly = project.role === 'MEMBER';
  return (
    <section className="panel" aria-labelledby="retention-heading">
      <h2 id="retention-heading">Data retention</h2>
      <p className="hint">Days each kind of data is kept, from 1 to 3650. Leave a field empty to keep that data forever. Expired email content disappears from the API and dashboard at once; the service deletes it, and expired received mail, in the background within the hour.</p>
      <form
        key={project.updatedAt}
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          void save.submit(Object.fromEntries(PERIODS.map((p) => [p.key, daysOf(v[p.key])])) as Record<RetentionKey, number | string | null>);
        }}
        noValidate
      >
        {PERIODS.map((p) => (
          <TextField
            key={p.key}
            label={`${p.label} (days)`}
            name={p.key}
            type="number"
            inputMode="numeric"
            min={1}
            max={3650}
            step={1}
            defaultValue={project.retention[p.key] ?? ''}
            placeholder="Kept forever"
            disabled={readOnly}
            hint={p.hint}
            error={fieldError(save.error, `retention.${p.key}`)}
          />
        ))}
        <ErrorMessage error={save.error} fields={['retention', ...FIELDS]} title="Could not save" />
        {save.isSuccess && <Notice>Saved.</Notice>}
        <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…" disabled={readOnly}>
          Save retention
        </Button>
      </form>
      <DataHeld projectId={project.id} />
    </section>
  );
}

/** Rows and estimated bytes per table, and the oldest event and email. */
function DataHeld({ projectId }: { projectId: string }) {
  const held = useDataHeld(projectId);
  return (
    <>
      <h3 id="held-heading">What is held</h3>
      <QueryView query={held} title="Could not measure what is held">
        {(d) => (
          <div className="table-wrap">
            <table aria-labelledby="held-heading">
              <thead>
                <tr>
                  <th scope="col">Data</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Size (estimate)</th>
                  <th scope="col">Oldest</th>
                </tr>
              </thead>
              <tbody>
                {d.tables.map((t) => (
                  <tr key={t.name}>
                    <th scope="row">{TABLE_LABELS[t.name] ?? t.name}</th>
                    <td>{t.rowsEstimated ? `about ${formatNumber(t.rows)}` : formatNumber(t.rows)}</td>
                    <td>{formatBytes(t.bytes)}</td>
                    <td>{t.oldestAt ? formatDate(t.oldestAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="hint">Measured {formatDate(d.measuredAt)}. Sizes are estimates (the table's average row size times the rows); counts past 100,000 are estimates too.</p>
          </div>
        )}
      </QueryView>
    </>
  );
}
