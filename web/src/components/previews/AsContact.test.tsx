import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AsContactPanel } from './AsContact';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

describe('preview and test as a contact', () => {
  it('previews the picked contact through the API at both widths and sends the test as that contact', async () => {
    const posts: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        if (url.pathname.endsWith('/users/@me')) return json({ id: 'u1', email: 'me@example.com' });
        if (url.pathname.endsWith('/contacts')) return json({ data: [{ id: 'cnt_1', email: 'ada@example.com' }], hasMore: false, cursor: null, total: 1 });
        posts.push({ url: url.pathname, body: await request.json() });
        if (url.pathname.endsWith('/preview')) return json({ subject: 'Hi Ada', html: '<p>Hi Ada</p>', text: 'Hi Ada', headers: {} });
        return json({ success: true, emailId: 'e1' });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/p/p1/templates/t1']}>
          <Routes>
            <Route path="/p/:projectId/templates/:id" element={<AsContactPanel target={{ kind: 'templates', id: 't1', version: 'v1' }} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const select = screen.getByLabelText('As contact');
    await waitFor(() => expect(screen.getByRole('option', { name: 'ada@example.com' })).toBeTruthy());
    fireEvent.change(select, { target: { value: 'cnt_1' } });
    await waitFor(() => expect(screen.getByLabelText('Subject as the contact').textContent).toContain('Hi Ada'));
    expect(posts[0]).toEqual({ url: expect.stringMatching(/\/templates\/t1\/preview$/), body: { contactId: 'cnt_1' } });
    expect((screen.getByTitle('Email as the contact (desktop)') as HTMLIFrameElement).style.width).toBe('640px');
    fireEvent.click(screen.getByLabelText(/Mobile/));
    expect((screen.getByTitle('Email as the contact (mobile)') as HTMLIFrameElement).style.width).toBe('375px');

    fireEvent.change(screen.getByLabelText('Send the test to'), { target: { value: 'qa@example.net' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send test as contact' }));
    await waitFor(() => expect(screen.getByText(/Test sent to qa@example.net/)).toBeTruthy());
    expect(posts[1]).toEqual({ url: expect.stringMatching(/\/templates\/t1\/test$/), body: { email: 'qa@example.net', contactId: 'cnt_1' } });
  });
});
