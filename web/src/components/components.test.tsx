import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseApiError } from '../api/errors';
import { useApiMutation } from '../lib/forms';
import { Button } from './Button';
import { DataTable, NameCell } from './DataTable';
import { ErrorMessage } from './ErrorMessage';
import { TextField } from './Fields';
import { ProgressBar } from './Feedback';
import { FilterSelect, ListToolbar, useListSearch } from './ListToolbar';

afterEach(cleanup);

const validation = parseApiError(422, {
  error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', requestId: 'req-9', errors: [{ field: 'email', message: 'email must be an email' }, { field: 'data.plan', message: 'too long' }] },
});

describe('form components', () => {
  it('labels a field and links its error for assistive technology', () => {
    render(<TextField label="Email" name="email" error="email must be an email" />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby')!;
    expect(document.getElementById(described)?.textContent).toBe('email must be an email');
  });

  it('shows only the errors no field shows, with the request id', () => {
    render(<ErrorMessage error={validation} fields={['email']} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Request validation failed');
    expect(alert.textContent).toContain('data.plan');
    expect(alert.textContent).not.toContain('email must be an email');
    expect(alert.textContent).toContain('req-9');
    cleanup();
    render(<ErrorMessage error={validation} fields={['email', 'data']} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('disables a pending button and says what it is doing', () => {
    render(
      <Button pending pendingLabel="Sending…">
        Send
      </Button>,
    );
    const button = screen.getByRole('button');
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.textContent).toContain('Sending…');
  });

  it('reports progress as a progressbar value', () => {
    render(<ProgressBar label="Importing" value={30} max={120} />);
    expect(screen.getByRole('progressbar', { name: 'Importing' }).getAttribute('aria-valuenow')).toBe('25');
    cleanup();
    render(<ProgressBar label="Waiting" />);
    expect(screen.getByRole('progressbar', { name: 'Waiting' }).getAttribute('aria-valuenow')).toBeNull();
  });
});

describe('useApiMutation', () => {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

  it('sends once when submitted twice before the first answer (double click)', async () => {
    let release!: (v: string) => void;
    const gate = new Promise<string>((resolve) => (release = resolve));
    const send = vi.fn(() => gate);
    const { result } = renderHook(() => useApiMutation({ mutationFn: send }), { wrapper });
    let first!: Promise<string | undefined>;
    let second!: Promise<string | undefined>;
    act(() => {
      first = result.current.submit();
      second = result.current.submit();
    });
    await act(async () => release('sent'));
    expect(await first).toBe('sent');
    expect(await second).toBeUndefined();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('keeps the error for the form instead of throwing', async () => {
    const { result } = renderHook(() => useApiMutation({ mutationFn: () => Promise.reject(validation) }), { wrapper });
    let outcome: unknown = 'unset';
    await act(async () => {
      outcome = await result.current.submit();
    });
    expect(outcome).toBeUndefined();
    await waitFor(() => expect(result.current.error).toBe(validation));
  });

  it('a submit button in a form fires one request per click while pending', async () => {
    const send = vi.fn(() => new Promise<void>(() => {}));
    function Form() {
      const m = useApiMutation({ mutationFn: send });
      return (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void m.submit();
          }}
        >
          <Button type="submit" pending={m.isPending}>
            Save
          </Button>
        </form>
      );
    }
    render(<Form />, { wrapper });
    const button = screen.getByRole('button', { name: 'Save' });
    fireEvent.click(button);
    fireEvent.click(button);
    await act(async () => {});
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('DataTable', () => {
  it('names the table by its caption, heads each column, and links each name with its detail line only when there is one', () => {
    render(
      <MemoryRouter>
        <DataTable caption="Segments" columns={['Name', 'Members']}>
          <tr>
            <NameCell to="/p/1/segments/a" name="Pro plan" detail="paying contacts" />
            <td>3</td>
          </tr>
          <tr>
            <NameCell to="/p/1/segments/b" name="Hand picked" detail={null} />
            <td>1</td>
          </tr>
        </DataTable>
      </MemoryRouter>,
    );
    const table = screen.getByRole('table', { name: 'Segments' });
    expect([...table.querySelectorAll('th')].map((th) => [th.textContent, th.getAttribute('scope')])).toEqual([
      ['Name', 'col'],
      ['Members', 'col'],
    ]);
    expect(screen.getByRole('link', { name: 'Pro plan' }).getAttribute('href')).toBe('/p/1/segments/a');
    expect(table.querySelectorAll('.muted')).toHaveLength(1);
  });
});

describe('ListToolbar', () => {
  function Harness({ setParams, beforeChange, onFilter }: { setParams: (c: Record<string, string>) => void; beforeChange: () => void; onFilter: (v: string) => void }) {
    const search = useListSearch(new URLSearchParams('search=old&page=3'), setParams, beforeChange);
    return (
      <>
        <ListToolbar search={search} placeholder="Name">
          <FilterSelect label="Status" value="" allLabel="All statuses" options={[{ value: 'SENT', label: 'sent' }]} onChange={onFilter} />
        </ListToolbar>
        <output>{search.search}</output>
      </>
    );
  }

  it('starts from the URL, writes each change to it on the first page, and asks the list once typing pauses', async () => {
    const setParams = vi.fn();
    const beforeChange = vi.fn();
    const onFilter = vi.fn();
    render(<Harness setParams={setParams} beforeChange={beforeChange} onFilter={onFilter} />);
    const box = screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement;
    expect(box.value).toBe('old');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('old'));
    fireEvent.change(box, { target: { value: ' ada ' } });
    expect(box.value).toBe(' ada ');
    expect(beforeChange).toHaveBeenCalledTimes(1);
    expect(setParams).toHaveBeenLastCalledWith({ search: 'ada', page: '' });
    expect(screen.getByRole('status').textContent).toBe('old');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('ada'));
    const select = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['All statuses', 'sent']);
    fireEvent.change(select, { target: { value: 'SENT' } });
    expect(onFilter).toHaveBeenCalledWith('SENT');
  });
});
