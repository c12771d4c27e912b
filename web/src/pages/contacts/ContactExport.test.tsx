import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportContactButton, exportFileName } from './ContactExport';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const contact = { id: 'cnt_0123456789abcdef0123456789abcdef', email: 'ann@example.com' };
const exported = { contact, topics: [], consent: [], events: [], emails: [], executions: [], inboundMessages: [], exportedAt: '2026-11-29T22:00:00.000Z' };

function renderButton(answer: () => Response) {
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      requests.push(request);
      return answer();
    }),
  );
  const saved: Array<{ name: string; blob: Blob }> = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => `blob:${saved.push({ name: '', blob: blob as Blob })}`);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved[saved.length - 1].name = this.download;
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[`/p/p1/contacts/${contact.id}`]}>
        <Routes>
          <Route path="/p/:projectId/contacts/:contactId" element={<ExportContactButton contact={contact} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { requests, saved };
}

describe('contact page: export data', () => {
  it("downloads the contact's export as a JSON file named after its address", async () => {
    const { requests, saved } = renderButton(() => new Response(JSON.stringify(exported), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Export data' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(new URL(requests[0].url).pathname).toBe(`/contacts/${contact.id}/export`);
    expect(requests[0].headers.get('X-Project-Id')).toBe('p1');
    expect(saved[0].name).toBe('contact-ann@example.com.json');
    expect(JSON.parse(await saved[0].blob.text())).toEqual(exported);
  });

  it('shows the error and saves nothing when the export is refused', async () => {
    const { saved } = renderButton(() => new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Contact not found' } }), { status: 404, headers: { 'Content-Type': 'application/json' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Export data' }));
    expect(await screen.findByText(/Contact not found/)).toBeTruthy();
    expect(saved).toEqual([]);
  });
});

describe('exportFileName', () => {
  it('uses the address, made safe for a file name, or the id when none is left', () => {
    expect(exportFileName(contact)).toBe('contact-ann@example.com.json');
    expect(exportFileName({ id: contact.id, email: 'Ann "x"/y@Example.com' })).toBe('contact-ann__x__y@example.com.json');
    expect(exportFileName({ id: contact.id, email: '..' })).toBe(`contact-${contact.id}.json`);
  });
});
