import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EraseContactButton } from './ContactErase';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const contact = { id: 'cnt_0123456789abcdef0123456789abcdef', email: 'ann@example.com' };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function renderButton(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      requests.push(request);
      return answer(request);
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[`/p/p1/contacts/${contact.id}`]}>
        <Routes>
          <Route path="/p/:projectId/contacts/:contactId" element={<EraseContactButton contact={contact} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { requests };
}

describe('contact page: erase', () => {
  it('says what goes before asking, then erases and shows the outcome', async () => {
    const { requests } = renderButton((request) =>
      request.method === 'POST'
        ? json(202, { jobId: 'ers_0123456789abcdef0123456789abcdef', status: 'queued' })
        : json(200, { id: 'ers_0123456789abcdef0123456789abcdef', contactId: contact.id, status: 'completed', requestedAt: '2026-11-30T00:00:00.000Z', completedAt: '2026-11-30T00:00:01.000Z' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    const dialog = await screen.findByRole('alertdialog');
    for (const what of ['its events', 'its workflow executions', 'its segment memberships', 'the mail it sent in', 'anonymised']) expect(dialog.textContent).toContain(what);
    expect(requests).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Erase for good' }));
    expect(await screen.findByText(/Erased: the contact and its personal data are gone/)).toBeTruthy();
    expect(screen.getByRole('status')).toBeTruthy();
    expect(requests[0].method).toBe('POST');
    expect(new URL(requests[0].url).pathname).toBe(`/contacts/${contact.id}/erase`);
    await waitFor(() => expect(requests.some((r) => new URL(r.url).pathname === '/contacts/erasures/ers_0123456789abcdef0123456789abcdef')).toBe(true));
  });

  it("shows the API's refusal in the dialog (a role below ADMIN)", async () => {
    renderButton(() => json(403, { success: false, error: { code: 'FORBIDDEN', message: 'This action needs the ADMIN or OWNER role' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Erase' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Erase for good' }));
    expect(await screen.findByText('This action needs the ADMIN or OWNER role')).toBeTruthy();
  });
});
