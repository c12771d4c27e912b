import { DataTable } from '../../components/DataTable';
import { liquidVariable } from '../../lib/liquid-keys';
import { type CsvPreview, keyProblem, MAX_KEY_LENGTH, type MappedColumn } from './columnMapping';

const TYPE_NAMES: Record<string, string> = { string: 'text', number: 'number', boolean: 'true/false', date: 'date' };

/** The mapping step: each column of the file, a sample value, the key it is stored under (editable), its type, and a skip box. */
export function ColumnMappingTable({
  preview,
  columns,
  fieldTypes,
  serverErrors,
  onChange,
}: {
  preview: CsvPreview;
  columns: MappedColumn[];
  /** The project's known fields, `data.<key>` → type. */
  fieldTypes: Map<string, string>;
  /** 422 items of the upload, by column header. */
  serverErrors: Map<string, string>;
  onChange: (columns: MappedColumn[]) => void;
}) {
  const update = (header: string, patch: Partial<MappedColumn>) => onChange(columns.map((c) => (c.header === header ? { ...c, ...patch } : c)));
  return (
    <DataTable caption="Columns of the file and the keys they are stored under" columns={['Column', 'First values', 'Stored as', 'Type', 'Skip']}>
      {columns.map((c) => {
        const samples = preview.rows.map((row) => row[c.index] ?? '').filter((v) => v.trim() !== '').slice(0, 3);
        const problem = keyProblem(c, columns) ?? serverErrors.get(c.header);
        const errorId = `mapping-error-${c.index}`;
        const known = c.isEmail ? undefined : fieldTypes.get(`data.${c.key}`);
        const type = c.isEmail ? 'email' : known ? `${TYPE_NAMES[known] ?? known} (existing field)` : c.sampleType ? `${TYPE_NAMES[c.sampleType] ?? c.sampleType} (from the file)` : 'empty so far';
        return (
          <tr key={c.header}>
            <th scope="row">{c.header || <span className="muted">(no name)</span>}</th>
            <td>{samples.length > 0 ? samples.join(', ') : <span className="muted">(empty)</span>}</td>
            <td>
              {c.isEmail ? (
                <span>the contact&apos;s address</span>
              ) : (
                <>
                  <input
                    aria-label={`Key for column ${c.header || c.index + 1}`}
                    value={c.key}
                    maxLength={MAX_KEY_LENGTH}
                    disabled={c.skip}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errorId : undefined}
                    onChange={(e) => update(c.header, { key: e.target.value })}
                  />
                  {problem ? (
                    <p className="field-error" id={errorId}>
                      {problem}
                    </p>
                  ) : (
                    !c.skip && <div className="muted"><code>{liquidVariable(c.key)}</code></div>
                  )}
                </>
              )}
            </td>
            <td>{c.skip ? <span className="muted">skipped</span> : type}</td>
            <td>{c.isEmail ? null : <input type="checkbox" aria-label={`Skip column ${c.header || c.index + 1}`} checked={c.skip} onChange={(e) => update(c.header, { skip: e.target.checked })} />}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}
