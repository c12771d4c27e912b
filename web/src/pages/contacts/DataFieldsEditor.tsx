import { useId, useMemo, useRef, useState } from 'react';
import { useContactFields } from '../../api/contacts';
import { Button } from '../../components/Button';
import { type DataRow, emptyText, type FieldType, newKeyError, newRowId, type RowType } from './dataFields';

/** The project's field types by key (`profile.tier`), from `GET /contacts/fields` (read only when `enabled`). */
export function useFieldTypes(enabled = true): { types: ReadonlyMap<string, FieldType>; settled: boolean } {
  const fields = useContactFields(enabled);
  const types = useMemo(
    () => new Map((fields.data?.fields ?? []).filter((f) => f.isCustom && f.field && f.type).map((f) => [f.field!.slice('data.'.length), f.type as FieldType])),
    [fields.data],
  );
  return { types, settled: !fields.isPending };
}

const TYPE_LABELS: Record<RowType, string> = { string: 'Text', number: 'Number', boolean: 'Yes/no', date: 'Date', json: 'JSON' };
const NEW_TYPES: FieldType[] = ['string', 'number', 'boolean', 'date'];

/** One field's input, by its type; labelled by the field's name, its error linked. */
function RowInput({ row, error, onChange }: { row: DataRow; error?: string; onChange: (text: string) => void }) {
  const id = useId();
  const name = row.path.join('.');
  const errorId = `${id}-error`;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined } as const;
  const input =
    row.type === 'boolean' ? (
      <input {...common} type="checkbox" checked={row.text === 'true'} onChange={(e) => onChange(String(e.target.checked))} />
    ) : row.type === 'number' ? (
      <input {...common} type="number" step="any" inputMode="decimal" value={row.text} onChange={(e) => onChange(e.target.value)} />
    ) : row.type === 'date' && row.original === undefined ? (
      <input {...common} type="date" value={row.text} onChange={(e) => onChange(e.target.value)} />
    ) : (
      <input {...common} type="text" spellCheck={false} value={row.text} onChange={(e) => onChange(e.target.value)} />
    );
  return (
    <div className={error ? 'field data-field field-invalid' : 'field data-field'}>
      <label htmlFor={id}>
        {name} <span className="muted">({TYPE_LABELS[row.type]})</span>
      </label>
      {input}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The contact's custom fields as typed inputs (string, number, yes/no, date; JSON for arrays),
 * a Remove button each, and a form row to add one: a field of the project (its type is fixed)
 * or a new name with a chosen type.
 */
export function DataFieldsEditor({
  rows,
  onRowsChange,
  errors,
  fieldTypes,
}: {
  rows: DataRow[];
  onRowsChange: (rows: DataRow[]) => void;
  errors: Record<string, string>;
  fieldTypes: ReadonlyMap<string, FieldType>;
}) {
  const [name, setName] = useState('');
  const [chosenType, setChosenType] = useState<FieldType>('string');
  const [nameError, setNameError] = useState<string>();
  const listId = useId();
  const nameId = useId();
  const typeId = useId();
  const editorRef = useRef<HTMLDivElement>(null);
  const known = fieldTypes.get(name.trim());
  const type = known ?? chosenType;
  const present = new Set(rows.map((r) => r.path.join('.')));
  const suggestions = [...fieldTypes.keys()].filter((k) => !present.has(k));

  const add = () => {
    const problem = newKeyError(name, rows);
    setNameError(problem);
    if (problem) return;
    const row: DataRow = { id: newRowId(), path: name.trim().split('.'), type, text: emptyText(type) };
    onRowsChange([...rows, row]);
    setName('');
    // Keyboard users continue in the new field's input.
    requestAnimationFrame(() => editorRef.current?.querySelector<HTMLInputElement>(`[data-row="${row.id}"] input`)?.focus());
  };

  return (
    <fieldset className="data-fields">
      <legend>Custom fields</legend>
      <p className="field-hint">Used in templates as {'{{key}}'} and in segments as data.key. Removing a field deletes it from this contact.</p>
      <div ref={editorRef}>
        {rows.length === 0 && <p className="muted">No custom fields.</p>}
        {rows.map((row) => (
          <div className="data-row" key={row.id} data-row={row.id}>
            <RowInput row={row} error={errors[row.id]} onChange={(text) => onRowsChange(rows.map((r) => (r.id === row.id ? { ...r, text } : r)))} />
            <Button variant="ghost" aria-label={`Remove ${row.path.join('.')}`} onClick={() => onRowsChange(rows.filter((r) => r.id !== row.id))}>
              Remove
            </Button>
          </div>
        ))}
      </div>
      <div className="data-add" role="group" aria-label="Add a field">
        <div className={nameError ? 'field field-invalid' : 'field'}>
          <label htmlFor={nameId}>New field name</label>
          <input
            id={nameId}
            list={listId}
            value={name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${nameId}-error` : undefined}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
            onKeyDown={(e) => {
              // Enter adds the field rather than submitting the whole form.
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <datalist id={listId}>
            {suggestions.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
          {nameError && (
            <p className="field-error" id={`${nameId}-error`} role="alert">
              {nameError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={typeId}>New field type</label>
          <select id={typeId} value={type} disabled={known !== undefined} aria-describedby={known ? `${typeId}-hint` : undefined} onChange={(e) => setChosenType(e.target.value as FieldType)}>
            {NEW_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          {known && (
            <p className="field-hint" id={`${typeId}-hint`}>
              The project's field type.
            </p>
          )}
        </div>
        <Button onClick={add}>Add field</Button>
      </div>
    </fieldset>
  );
}
