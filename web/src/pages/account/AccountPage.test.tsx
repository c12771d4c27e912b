import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testProject } from '../../testing/fixtures';
import { DeleteAccount } from './AccountPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Renders the deletion form against a fetch that answers DELETE /users/@me with `answer`; returns the bodies sent. */
function renderForm(answer: () => Response) {
  const sent: Array<{ method: string; path: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      sent.push({ method: request.method, path: new URL(request.url).pathname, body: await request.json() });
      return answer();
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/account']}>
        <Routes>
          <Route path="/account" element={<DeleteAccount projects={[testProject({ id: 'p1', name: 'Acme', role: 'OWNER' }), testProject({ id: 'p2', name: 'Partner', role: 'ADMIN' })]} />} />
          <Route path="/login" element={<p>Login page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const submit = (password: string) => {
  fireEvent.change(screen.getByLabelText('Your password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
};

describe('account: delete your account', () => {
  it('names what goes with it: the projects owned, the memberships, the sessions', () => {
    renderForm(() => new Response(null, { status: 204 }));
    const text = screen.getByRole('region', { name: 'Delete your account' }).textContent ?? '';
    expect(text).toContain('with all their contacts, templates, campaigns, domains, webhooks and API keys: Acme');
    expect(text).toContain('your membership of Partner (those projects stay)');
    expect(text).toContain('signed out everywhere');
  });

  it('sends the password and, once deleted, goes to the login page', async () => {
    const sent = renderForm(() => new Response(null, { status: 204 }));
    submit('correct horse battery');
    await screen.findByText('Login page');
    expect(sent).toEqual([{ method: 'DELETE', path: '/users/@me', body: { password: 'correct horse battery' } }]);
  });

  it("shows the refusal naming the projects that still have other members, and stays", async () => {
    renderForm(() =>
      json(409, { success: false, error: { code: 'CONFLICT', message: 'You own a project with other members: "Acme"', details: { projects: [{ id: 'p1', name: 'Acme' }] } } }),
    );
    submit('correct horse battery');
    await waitFor(() => expect(screen.getByText('You own a project with other members: "Acme"')).toBeTruthy());
    expect(screen.queryByText('Login page')).toBeNull();
  });
});
