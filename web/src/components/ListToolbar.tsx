import { type ReactNode, useState } from 'react';
import { useDebounced } from '../lib/useDebounced';
import { SelectField, TextField } from './Fields';

export interface ListSearch {
  /** What the box shows, as typed. */
  text: string;
  /** What the list asks for: the trimmed text once typing paused ('' for none). */
  search: string;
  /** Sets the box and the URL's `search` (and goes back to the first page). */
  update: (value: string) => void;
}

/**
 * A list page's search box, kept in the URL (`?search=`) so a reload or a shared link shows the
 * same list, and debounced so the list is asked once per pause, not per key. `beforeChange` runs
 * first on every change (the contacts page clears its selection there).
 */
export function useListSearch(params: URLSearchParams, setParams: (changes: Record<string, string>) => void, beforeChange?: () => void): ListSearch {
  const [text, setText] = useState(params.get('search') ?? '');
  const search = useDebounced(text.trim());
  const update = (value: string) => {
    beforeChange?.();
    setText(value);
    setParams({ search: value.trim(), page: '' });
  };
  return { text, search, update };
}

/** The search box of a list page, followed by its filters (`FilterSelect`s). */
export function ListToolbar({ search, label = 'Search', placeholder, children }: { search: ListSearch; label?: string; placeholder: string; children?: ReactNode }) {
  return (
    <div className="toolbar" role="search">
      <TextField label={label} type="search" value={search.text} placeholder={placeholder} onChange={(e) => search.update(e.target.value)} />
      {children}
    </div>
  );
}

/** A filter of a list page: one choice among `options`, with `allLabel` ('' value) first when given. */
export function FilterSelect({
  label,
  value,
  allLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  allLabel?: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <SelectField label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {allLabel !== undefined && <option value="">{allLabel}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  );
}
