import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../api/audit';
import { testProject } from '../../testing/fixtures';
import { AuditLog, filtersOf } from './AuditLogSettings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const project = testProject({ role: 'ADMIN' });

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'e1',
  actor: { type: 'user', id: 'u1', email: 'ada@acme.test' },
  action: 'project.settings_updated',
  target: { type: 'project', id: 'p1' },
  at: '2026-03-05T14:30:00.000Z',
  ip: '198.51.100.7',
  ...over,
});

const firstPage = {
  data: [
    entry({ id: 'e1', changes: ['name', 'doubleOptIn'] }),
    entry({ id: 'e2', actor: { type: 'key', id: 'sk_1234567' }, action: 'domain.created', target: { type: 'domain', id: 'd1' }, ip: '192.0.2.1' }),
  ],
  cursor: 'next-page',
  hasMore: true,
  total: 3,
};
const secondPage = { data: [entry({ id: 'e3', action: 'member.removed', target: { type: 'user', id: 'u2' } })], cursor: null, hasMore: false, total: 0 };

/** Renders the log against a fetch that answers GET /audit-log with `answer(query)`; returns the queries asked. */
function renderLog(answer: (query: URLSearchParams) => Response, url = '/p/p1/settings/audit-log') {
  const asked: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const at = new URL(request.url);
      if (at.pathname === '/projects/p1/members') return json(200, [{ userId: 'u1', email: 'ada@acme.test', role: 'OWNER', createdAt: '2026-01-01T00:00:00.000Z' }]);
      if (at.pathname === '/audit-log') {
        expect(request.headers.get('X-Project-Id')).toBe('p1');
        asked.push(at.searchParams);
        return answer(at.searchParams);
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'not here' } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/p/:projectId/settings/audit-log" element={<AuditLog project={project} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return asked;
}

describe('settings: audit log', () => {
  it('lists who did what, from where, and shows older entries on demand', async () => {
    const asked = renderLog((query) => json(200, query.get('cursor') === 'next-page' ? secondPage : firstPage));
    await screen.findByText('name, doubleOptIn');
    const rows = () => screen.getAllByRole('row').slice(1).map((row) => row.textContent);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toContain('ada@acme.test');
    expect(rows()[0]).toContain('name, doubleOptIn');
    expect(rows()[0]).toContain('198.51.100.7');
    expect(rows()[1]).toContain('Secret key sk_1234567…');
    expect(rows()[1]).toContain('Domain added');
    expect(screen.getByText('3 in all')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    await screen.findByText('u2');
    expect(rows()).toHaveLength(3);
    expect(asked.map((q) => q.get('cursor'))).toEqual([null, 'next-page']);
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();
  });

  it('filters by action, actor (a member or the secret key) and days, asking the API for each', async () => {
    const asked = renderLog(() => json(200, { data: [], cursor: null, hasMore: false, total: 0 }));
    await screen.findByText('Nothing recorded yet');
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'webhook.deleted' } });
    await waitFor(() => expect(asked.at(-1)?.get('action')).toBe('webhook.deleted'));
    await screen.findByRole('option', { name: 'ada@acme.test' });
    fireEvent.change(screen.getByLabelText('Who'), { target: { value: 'sk_1234567' } });
    await waitFor(() => expect(asked.at(-1)?.get('actorId')).toBe('sk_1234567'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    await waitFor(() => expect(asked.at(-1)?.get('to')).toBe(new Date('2026-03-31T23:59:59.999').toISOString()));
    expect(asked.at(-1)?.get('from')).toBe(new Date('2026-03-01T00:00').toISOString());
    expect(asked.at(-1)?.get('action')).toBe('webhook.deleted');
    expect(screen.getByText('Nothing matches these filters')).toBeTruthy();
  });

  it("shows the API's refusal (a role below ADMIN)", async () => {
    renderLog(() => json(403, { success: false, error: { code: 'FORBIDDEN', message: 'This action needs the ADMIN or OWNER role' } }));
    expect(await screen.findByText('This action needs the ADMIN or OWNER role')).toBeTruthy();
  });

  it('reads the filters of a shared link, ignoring an unknown action', () => {
    expect(filtersOf(new URLSearchParams('action=domain.created&actor=u1'))).toEqual({ action: 'domain.created', actorId: 'u1', from: undefined, to: undefined });
    expect(filtersOf(new URLSearchParams('action=nope')).action).toBeUndefined();
  });
});
