import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BulkExportButton, type ExportChoice } from './BulkExport';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const JOB = 'exp_0123456789abcdef0123456789abcdef';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function renderExport(role: string, choices: ExportChoice[]) {
  const requests: Array<{ method: string; path: string; body: string }> = [];
  let polls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      requests.push({ method: request.method, path, body: request.method === 'POST' ? await request.text() : '' });
      if (path === '/users/@me/projects/p1') return json(200, { id: 'p1', name: 'P', role });
      if (path === '/contacts/export') return json(202, { jobId: JOB, status: 'queued' });
      if (path === `/contacts/export/${JOB}/download`) return new Response('id,email\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
      if (path === `/contacts/export/${JOB}`) {
        polls++;
        const done = polls > 1;
        return json(200, { id: JOB, status: done ? 'completed' : 'running', format: 'csv', rows: done ? 40 : 12, downloadUrl: done ? `/contacts/export/${JOB}/download` : null, createdAt: '2026-11-30T00:00:00.000Z', completedAt: null });
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    }),
  );
  const saved: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/p/p1/contacts']}>
        <Routes>
          <Route path="/p/:projectId/contacts" element={<BulkExportButton choices={choices} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { requests, saved };
}

const CHOICES: ExportChoice[] = [
  { id: 'filter', label: 'Contacts matching the current filters', selection: {}, unavailable: 'The snooze filter cannot be applied to an export.' },
  { id: 'all', label: 'All contacts', selection: {}, expected: 40 },
];

describe('contacts: bulk export', () => {
  it('exports the chosen contacts in the chosen format, shows progress, then downloads the file', async () => {
    const { requests, saved } = renderExport('OWNER', CHOICES);
    fireEvent.click(await screen.findByRole('button', { name: 'Export' }));
    expect(screen.getByText('The snooze filter cannot be applied to an export.')).toBeTruthy();
    expect((screen.getByRole('radio', { name: /current filters/ }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: 'All contacts' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /NDJSON/ }));
    fireEvent.click(screen.getByRole('radio', { name: /CSV/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Start export' }));
    const download = await screen.findByRole('button', { name: 'Download CSV' }, { timeout: 3000 });
    expect(requests.find((r) => r.method === 'POST')?.body).toBe(JSON.stringify({ format: 'csv' }));
    expect(screen.getByText('40 contacts written')).toBeTruthy();
    fireEvent.click(download);
    await waitFor(() => expect(saved).toEqual([`contacts-${JOB}.csv`]));
  });

  it('is not offered to a MEMBER', async () => {
    const { requests } = renderExport('MEMBER', CHOICES);
    await waitFor(() => expect(requests.some((r) => r.path === '/users/@me/projects/p1')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});
