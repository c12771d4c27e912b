import { useState } from 'react';
import { useContactFields } from '../../api/contacts';
import { CheckboxField } from '../../components/Fields';
import { Loading } from '../../components/Feedback';
import { formatDate } from '../../lib/format';
import { inferType } from './dataFields';

/** A data value in a list cell, by its type: numbers grouped, yes/no, dates in the user's zone (a date alone as that day). */
export function DataCell({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <span className="muted">—</span>;
  switch (inferType(value)) {
    case 'number':
      return <>{(value as number).toLocaleString()}</>;
    case 'boolean':
      return <>{value ? 'Yes' : 'No'}</>;
    case 'date': {
      const text = value as string;
      if (text.length > 10) return <time dateTime={text}>{formatDate(text)}</time>;
      return <time dateTime={text}>{new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${text}T00:00:00Z`))}</time>;
    }
    case 'string':
      return <>{value as string}</>;
    default:
      return <code>{JSON.stringify(value)}</code>;
  }
}

/**
 * "Columns": which custom fields the list shows. The project's fields are read when it opens
 * (their coverage scans every contact, so the list itself never waits for them); the keys of
 * the shown rows are offered at once.
 */
export function ColumnChooser({ chosen, shownKeys, onChange }: { chosen: string[]; shownKeys: string[]; onChange: (columns: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const fields = useContactFields(open);
  const projectKeys = (fields.data?.fields ?? []).filter((f) => f.isCustom && f.field).map((f) => f.field!.slice('data.'.length));
  const keys = [...new Set([...chosen, ...shownKeys, ...projectKeys])].sort();
  return (
    <details className="column-chooser" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="btn btn-secondary">Columns{chosen.length ? ` (${chosen.length})` : ''}</summary>
      <div className="column-chooser-panel" role="group" aria-label="Custom field columns">
        {keys.length === 0 && !fields.isFetching && <p className="muted">No custom fields yet.</p>}
        {keys.map((key) => (
          <CheckboxField
            key={key}
            label={key}
            checked={chosen.includes(key)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, key] : chosen.filter((k) => k !== key))}
          />
        ))}
        {fields.isFetching && <Loading label="Loading the project's fields…" />}
      </div>
    </details>
  );
}
