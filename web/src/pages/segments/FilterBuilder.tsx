import { useContactFields } from '../../api/contacts';
import { useEventNames, useSegments } from '../../api/segments';
import { Button } from '../../components/Button';
import {
  addFilter,
  addGroup,
  EMAIL_EVENTS,
  fieldFamily,
  type FieldTypes,
  type Filter,
  type FilterTree,
  type GroupPath,
  type Logic,
  needsUnit,
  needsValue,
  OPERATOR_LABELS,
  OPERATORS_BY_FAMILY,
  problems,
  removeFilter,
  removeGroup,
  setLogic,
  type TreeProblem,
  UNITS,
  type Unit,
  updateFilter,
} from './filterTree';

export interface FieldChoices {
  types: FieldTypes;
  dataFields: string[];
  eventNames: string[];
  segments: { id: string; name: string }[];
}

/** What the builder offers: contact fields, custom data fields, tracked event names, segments. */
export function useFieldChoices(excludeSegmentId?: string): FieldChoices {
  const fields = useContactFields();
  const events = useEventNames();
  const segments = useSegments();
  const types: FieldTypes = {};
  const dataFields: string[] = [];
  for (const f of fields.data?.fields ?? []) {
    if (f.field?.startsWith('data.') && f.type) {
      types[f.field] = f.type;
      dataFields.push(f.field);
    }
  }
  return {
    types,
    dataFields,
    eventNames: events.data ?? [],
    segments: (segments.data ?? []).filter((s) => s.id !== excludeSegmentId).map((s) => ({ id: s.id, name: s.name })),
  };
}

const OTHER_DATA = '__data';
const OTHER_EVENT = '__event';

function FieldPicker({ filter, choices, onChange, label }: { filter: Filter; choices: FieldChoices; onChange: (field: string) => void; label: string }) {
  const f = filter.field;
  const knownData = choices.dataFields.includes(f);
  const knownEvent = f.startsWith('event.') && choices.eventNames.includes(f.slice(6));
  const selectValue = f.startsWith('data.') && !knownData ? OTHER_DATA : f.startsWith('event.') && !knownEvent ? OTHER_EVENT : f;
  return (
    <>
      <select aria-label={`${label} field`} value={selectValue} onChange={(e) => onChange(e.target.value === OTHER_DATA ? 'data.' : e.target.value === OTHER_EVENT ? 'event.' : e.target.value)}>
        <optgroup label="Contact">
          <option value="email">Email address</option>
          <option value="subscribed">Subscribed</option>
          <option value="createdAt">Created</option>
          <option value="updatedAt">Updated</option>
        </optgroup>
        <optgroup label="Custom data">
          {choices.dataFields.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
          <option value={OTHER_DATA}>Other data field…</option>
        </optgroup>
        <optgroup label="Tracked events">
          {choices.eventNames.map((n) => (
            <option key={n} value={`event.${n}`}>
              event {n}
            </option>
          ))}
          <option value={OTHER_EVENT}>Other event name…</option>
        </optgroup>
        <optgroup label="Emails to the contact">
          {EMAIL_EVENTS.map((e) => (
            <option key={e} value={`email.${e}`}>
              email {e}
            </option>
          ))}
        </optgroup>
        <optgroup label="Segment membership">
          {choices.segments.map((s) => (
            <option key={s.id} value={`segment.${s.id}`}>
              segment {s.name}
            </option>
          ))}
        </optgroup>
      </select>
      {selectValue === OTHER_DATA && <input aria-label={`${label} data key`} placeholder="data key, e.g. plan or profile.tier" value={f.slice(5)} onChange={(e) => onChange(`data.${e.target.value.trim()}`)} />}
      {selectValue === OTHER_EVENT && <input aria-label={`${label} event name`} placeholder="event name, e.g. signup" value={f.slice(6)} onChange={(e) => onChange(`event.${e.target.value.trim()}`)} />}
    </>
  );
}

function FilterRow({ filter, label, choices, problem, apiError, onChange, onRemove }: { filter: Filter; label: string; choices: FieldChoices; problem?: string; apiError?: string; onChange: (patch: Partial<Filter>) => void; onRemove: () => void }) {
  const family = fieldFamily(filter.field, choices.types);
  const ops = OPERATORS_BY_FAMILY[family];
  const message = problem ?? apiError;
  const errorId = `${label.replace(/\W+/g, '-')}-error`;
  return (
    <li className="filter-row" aria-label={label}>
      <FieldPicker filter={filter} choices={choices} label={label} onChange={(field) => onChange({ field })} />
      <select aria-label={`${label} operator`} value={filter.operator} onChange={(e) => onChange({ operator: e.target.value })}>
        {ops.map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </select>
      {needsValue(filter.operator) &&
        (family === 'boolean' ? (
          <select aria-label={`${label} value`} value={String(filter.value ?? '')} onChange={(e) => onChange({ value: e.target.value })}>
            <option value="">choose…</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input
            aria-label={`${label} value`}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? errorId : undefined}
            type={needsUnit(filter.operator) || family === 'number' ? 'number' : family === 'date' ? 'datetime-local' : 'text'}
            value={String(filter.value ?? '')}
            onChange={(e) => onChange({ value: e.target.value })}
          />
        ))}
      {needsUnit(filter.operator) && (
        <select aria-label={`${label} unit`} value={filter.unit ?? 'days'} onChange={(e) => onChange({ unit: e.target.value as Unit })}>
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      )}
      <Button onClick={onRemove} aria-label={`Remove ${label}`}>
        Remove
      </Button>
      {message && (
        <p className="field-error" id={errorId} role="alert">
          {message}
        </p>
      )}
    </li>
  );
}

function LogicPicker({ value, onChange, label }: { value: Logic; onChange: (l: Logic) => void; label: string }) {
  return (
    <label className="logic-picker">
      {label}{' '}
      <select value={value} onChange={(e) => onChange(e.target.value as Logic)}>
        <option value="AND">all groups match (AND)</option>
        <option value="OR">any group matches (OR)</option>
      </select>
    </label>
  );
}

function TreeView({ tree, path, choices, found, apiError, update }: { tree: FilterTree; path: GroupPath; choices: FieldChoices; found: TreeProblem[]; apiError?: string; update: (fn: (t: FilterTree) => FilterTree) => void }) {
  const where = path.length ? `Nested groups of group ${path.map((i) => i + 1).join('.')}` : 'Groups';
  return (
    <div className="filter-tree">
      {tree.groups.length > 1 && <LogicPicker label={`${where}:`} value={tree.logic} onChange={(l) => update((t) => setLogic(t, path, l))} />}
      {tree.groups.map((g, gi) => {
        const gp = [...path, gi];
        const name = `Group ${gp.map((i) => i + 1).join('.')}`;
        const groupProblem = found.find((p) => p.index === undefined && p.path.join('.') === gp.join('.'));
        return (
          <fieldset key={gi} className="filter-group">
            <legend>
              {name} {gi > 0 && <span className="muted">({tree.logic === 'OR' ? 'or' : 'and'})</span>}
            </legend>
            <p className="muted">Every filter of the group must match.</p>
            <ul className="filter-list">
              {g.filters.map((f, fi) => (
                <FilterRow
                  key={fi}
                  filter={f}
                  label={`${name} filter ${fi + 1}`}
                  choices={choices}
                  problem={found.find((p) => p.index === fi && p.path.join('.') === gp.join('.'))?.message}
                  apiError={undefined}
                  onChange={(patch) => update((t) => updateFilter(t, gp, fi, patch, choices.types))}
                  onRemove={() => update((t) => removeFilter(t, gp, fi))}
                />
              ))}
            </ul>
            {groupProblem && <p className="field-error">{groupProblem.message}</p>}
            {g.conditions && <TreeView tree={g.conditions} path={gp} choices={choices} found={found} update={update} />}
            <div className="button-row">
              <Button onClick={() => update((t) => addFilter(t, gp))}>Add filter to {name.toLowerCase()}</Button>
              {gp.length < 3 && <Button onClick={() => update((t) => addGroup(t, gp))}>Add nested group</Button>}
              <Button onClick={() => update((t) => removeGroup(t, gp))}>Remove {name.toLowerCase()}</Button>
            </div>
          </fieldset>
        );
      })}
      {apiError && (
        <p className="field-error" role="alert">
          {apiError}
        </p>
      )}
      {path.length === 0 && (
        <Button onClick={() => update((t) => addGroup(t, []))}>Add group</Button>
      )}
    </div>
  );
}

/** The filter builder: groups of filters (AND inside a group), joined by AND/OR, nested groups. */
export function FilterBuilder({ tree, onChange, choices, apiError }: { tree: FilterTree; onChange: (t: FilterTree) => void; choices: FieldChoices; apiError?: string }) {
  const found = problems(tree);
  return (
    <div className="filter-builder">
      <TreeView tree={tree} path={[]} choices={choices} found={found} apiError={apiError} update={(fn) => onChange(fn(tree))} />
    </div>
  );
}
