import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useUrlParams } from '../../lib/useUrlParams';
import { data } from '../../api/client';
import { type ContactListParams, type ContactSort, useContactList } from '../../api/contacts';
import { qk } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { Badge, EmptyState, Loading, PageHeader } from '../../components/Feedback';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { BulkActions } from './BulkActions';
import { BulkExportButton, type ExportChoice } from './BulkExport';
import { listFilterTree } from './exportFilter';
import { useTopics } from '../../api/topics';
import { FilterSelect, ListToolbar, useListSearch } from '../../components/ListToolbar';
import { ColumnChooser, DataCell } from './ColumnChooser';
import { DataFieldsEditor, useFieldTypes } from './DataFieldsEditor';
import { columnsStorageKey, type DataRow, fromRows, leafPaths, readColumns, valueAt } from './dataFields';

const SUBSCRIPTIONS = [
  { value: 'true', label: 'Subscribed' },
  { value: 'false', label: 'Unsubscribed' },
];

const CONFIRMATIONS = [
  { value: 'pending', label: 'Confirmation pending' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'none', label: 'Never asked' },
];

const SNOOZE = [
  { value: 'true', label: 'Snoozed' },
  { value: 'false', label: 'Not snoozed' },
];

const SORTS: { value: string; label: string }[] = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'email:asc', label: 'Email A → Z' },
  { value: 'email:desc', label: 'Email Z → A' },
];

function AddContact() {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<DataRow[]>([]);
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  // The project's field types, read when the dialog opens (never for the list itself).
  const fieldTypes = useFieldTypes(open).types;
  const create = useApiMutation({
    mutationFn: (body: { email: string; subscribed: boolean; data: Record<string, unknown> }) => data(api.POST('/contacts', { body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
      setOpen(false);
      setRows([]);
    },
  });
  return (
    <>
      <Button onClick={() => setOpen(true)}>Add contact</Button>
      <Modal open={open} onOpenChange={setOpen} title="Add a contact" description="An existing address is updated instead (the fields given replace its values).">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            const built = fromRows(rows);
            if ('errors' in built) return setRowErrors(built.errors);
            setRowErrors({});
            void create.submit({ email: (v.email ?? '').trim(), subscribed: v.subscribed === 'on', data: built.data });
          }}
          noValidate
        >
          <TextField label="Email" name="email" type="email" required error={fieldError(create.error, 'email')} />
          <CheckboxField label="Subscribed to marketing email" name="subscribed" defaultChecked />
          <DataFieldsEditor rows={rows} onRowsChange={setRows} errors={rowErrors} fieldTypes={fieldTypes} />
          {fieldError(create.error, 'data') && (
            <p className="field-error" role="alert">
              {fieldError(create.error, 'data')}
            </p>
          )}
          <ErrorMessage error={create.error} fields={['email', 'data']} />
          <div className="dialog-actions">
            <Button type="submit" variant="primary" pending={create.isPending} pendingLabel="Saving…">
              Save contact
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}

export default function ContactsListPage() {
  const projectId = useProjectId();
  const [params, setUrlParams] = useUrlParams();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const clearSelection = useCallback(() => setSelected(new Set()), []);
  // A new search or filter starts a new selection: never act on contacts no longer shown.
  const searchBox = useListSearch(params, setUrlParams, clearSelection);
  const search = searchBox.search;
  const subscribed = params.get('subscribed') ?? '';
  const confirmation = params.get('confirmation') ?? '';
  const topic = params.get('topic') ?? '';
  const snoozed = params.get('snoozed') ?? '';
  const topics = useTopics();
  const sort = params.get('sort') ?? 'createdAt:desc';
  const [sortField, sortDir] = sort.split(':') as [ContactSort, 'asc' | 'desc'];
  const listParams: ContactListParams = useMemo(
    () => ({
      search: search || undefined,
      subscribed: subscribed === 'true' || subscribed === 'false' ? subscribed : undefined,
      confirmation: CONFIRMATIONS.some((c) => c.value === confirmation) ? (confirmation as ContactListParams['confirmation']) : undefined,
      topic: topic || undefined,
      snoozed: snoozed === 'true' || snoozed === 'false' ? snoozed : undefined,
      sort: sortField,
      dir: sortDir,
    }),
    [search, subscribed, confirmation, topic, snoozed, sortField, sortDir],
  );
  const list = useContactList(listParams);
  // Chosen columns are per project (this page stays mounted when the project changes).
  const [chosenColumns, setChosenColumns] = useState<Record<string, string[]>>({});
  const columns = chosenColumns[projectId] ?? readColumns(localStorage, projectId);
  const setColumns = (next: string[]) => {
    setChosenColumns((prev) => ({ ...prev, [projectId]: next }));
    localStorage.setItem(columnsStorageKey(projectId), JSON.stringify(next));
  };
  // The bulk panel stays after its job cleared the selection, to show the outcome until dismissed.
  const [bulkOpen, setBulkOpen] = useState(false);

  const setParam = (key: string, value: string) => {
    clearSelection();
    setUrlParams({ [key]: value });
  };

  const loadError = list.error;
  const contacts = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total;
  const filtered = Boolean(search || subscribed || confirmation || topic || snoozed);
  const shownKeys = useMemo(() => [...new Set(contacts.slice(0, 100).flatMap((c) => leafPaths(c.data)))], [contacts]);
  const exportChoices = useMemo((): ExportChoice[] => {
    const all: ExportChoice = { id: 'all', label: 'All contacts', selection: {}, expected: filtered ? undefined : total };
    if (!filtered) return [all];
    const { tree, unsupported } = listFilterTree({ search, subscribed, topic, confirmation, snoozed });
    const current: ExportChoice = {
      id: 'filter',
      label: search ? 'Contacts matching the current filters (the search applies to the email address)' : 'Contacts matching the current filters',
      selection: tree ? { filter: tree } : {},
      expected: search ? undefined : total,
      unavailable: unsupported.length ? `The ${unsupported.join(' and ')} filter cannot be applied to an export: clear it, or export all contacts.` : undefined,
    };
    return [current, all];
  }, [filtered, total, search, subscribed, topic, confirmation, snoozed]);
  const allShownSelected = contacts.length > 0 && contacts.every((c) => selected.has(c.id));
  const toggle = (id: string) => {
    setBulkOpen(true);
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };

  return (
    <>
      <PageHeader
        title="Contacts"
        description={total !== undefined ? `${total.toLocaleString()} ${filtered ? 'matching' : 'in this project'}` : 'Everyone this project can email.'}
        actions={
          <>
            <AddContact />
            <BulkExportButton choices={exportChoices} />
            <Link className="btn btn-primary" to={projectPath(projectId, 'contacts', 'import')}>
              Import CSV
            </Link>
          </>
        }
      />
      <ListToolbar search={searchBox} label="Search by email or text field" placeholder="e.g. @example.com or a company">
        <FilterSelect label="Subscription" value={subscribed} allLabel="All contacts" options={SUBSCRIPTIONS} onChange={(value) => setParam('subscribed', value)} />
        {(topics.data?.length ?? 0) > 0 && (
          <FilterSelect label="Topic" value={topic} allLabel="Any topic" options={(topics.data ?? []).map((t) => ({ value: t.slug, label: `Members of ${t.name}` }))} onChange={(value) => setParam('topic', value)} />
        )}
        <FilterSelect label="Snooze" value={snoozed} allLabel="Snoozed or not" options={SNOOZE} onChange={(value) => setParam('snoozed', value)} />
        <FilterSelect label="Double opt-in" value={confirmation} allLabel="Any confirmation" options={CONFIRMATIONS} onChange={(value) => setParam('confirmation', value)} />
        <FilterSelect label="Sort" value={sort} options={SORTS} onChange={(value) => setParam('sort', value === 'createdAt:desc' ? '' : value)} />
        <ColumnChooser chosen={columns} shownKeys={shownKeys} onChange={setColumns} />
      </ListToolbar>
      {(selected.size > 0 || bulkOpen) && <BulkActions selected={[...selected]} onFinished={clearSelection} onDismiss={() => setBulkOpen(false)} />}
      {list.isPending ? (
        <Loading label="Loading contacts…" />
      ) : list.isError && !list.data ? (
        <>
          <ErrorMessage error={list.error} title="Could not load contacts" />
          <Button onClick={() => list.refetch()}>Try again</Button>
        </>
      ) : contacts.length === 0 ? (
        filtered ? (
          <EmptyState title="No contact matches">Change the search or the subscription filter.</EmptyState>
        ) : (
          <EmptyState
            title="No contacts yet"
            action={
              <Link className="btn btn-primary" to={projectPath(projectId, 'contacts', 'import')}>
                Import a CSV file
              </Link>
            }
          >
            <p>Import a CSV file with an email column, add contacts one by one, or let the API create them: every address you send to with POST /v1/send or track with POST /v1/track becomes a contact.</p>
          </EmptyState>
        )
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Contacts</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all shown contacts"
                      checked={allShownSelected}
                      onChange={() => {
                        setBulkOpen(true);
                        setSelected(allShownSelected ? new Set() : new Set(contacts.map((c) => c.id)));
                      }}
                    />
                  </th>
                  <th scope="col">Email</th>
                  <th scope="col">Subscription</th>
                  {columns.length ? (
                    columns.map((key) => (
                      <th scope="col" key={key}>
                        {key}
                      </th>
                    ))
                  ) : (
                    <th scope="col">Data</th>
                  )}
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {contacts.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <input type="checkbox" aria-label={`Select ${c.email}`} checked={selected.has(c.id)} onChange={() => toggle(c.id)} />
                    </td>
                    <td>
                      <Link className="row-link" to={projectPath(projectId, 'contacts', c.id)}>
                        {c.email}
                      </Link>
                    </td>
                    <td>{c.subscribed ? <Badge tone="good">Subscribed</Badge> : <Badge>Unsubscribed</Badge>}</td>
                    {columns.length ? (
                      columns.map((key) => (
                        <td key={key}>
                          <DataCell value={valueAt(c.data, key)} />
                        </td>
                      ))
                    ) : (
                      <td className="muted">{Object.keys(c.data ?? {}).length ? Object.keys(c.data).slice(0, 4).join(', ') : '—'}</td>
                    )}
                    <td>{formatDate(c.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <span className="pager-summary">
              Showing {contacts.length.toLocaleString()}
              {total !== undefined ? ` of ${total.toLocaleString()}` : ''}
            </span>
            {list.hasNextPage && (
              <Button onClick={() => list.fetchNextPage()} pending={list.isFetchingNextPage} pendingLabel="Loading…">
                Load more
              </Button>
            )}
          </div>
          {list.isFetchNextPageError && <ErrorMessage error={loadError} title="Could not load more" />}
        </>
      )}
    </>
  );
}
