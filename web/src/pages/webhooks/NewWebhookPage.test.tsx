import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreatedWebhook } from '../../api/webhooks';
import NewWebhookPage from './NewWebhookPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const created: CreatedWebhook = {
  id: 'w1',
  url: 'https://example.com/hook',
  description: null,
  events: ['email.*', 'purchase'],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastSuccessAt: null,
  failingSince: null,
  lastDeliveryAt: null,
  lastDeliveryStatus: null,
  previousSecretExpiresAt: null,
  secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==',
};

function renderPage(answerPost: (body: Record<string, unknown>) => Response) {
  const posted: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/events/names') return json(200, { names: [{ name: 'purchase', count: 3, lastSeenAt: '2026-01-01T00:00:00.000Z' }] });
      if (request.method === 'POST' && url.pathname === '/webhooks') {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push(body);
        return answerPost(body);
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'not here' } });
    }),
  );
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/p/p1/webhooks/new']}>
        <Routes>
          <Route path="/p/:projectId/webhooks/new" element={<NewWebhookPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { posted, queryClient };
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));

describe('adding a webhook endpoint', () => {
  it('asks for an event first, shows the API refusal at its field, then shows the secret once and caches it nowhere', async () => {
    let refuse = true;
    const { posted, queryClient } = renderPage(() =>
      refuse ? json(422, { error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', errors: [{ field: 'url', message: 'url must be an absolute http or https URL' }] } }) : json(201, created),
    );
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: 'ftp://example.com/hook' } });
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Pick at least one event.');
    expect(posted).toHaveLength(0);

    fireEvent.click(screen.getByRole('checkbox', { name: /^Opened/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /^Every email event/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /^purchase/ }));
    submit();
    await waitFor(() => expect(screen.getByLabelText('Endpoint URL').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('url must be an absolute http or https URL')).toBeTruthy();
    // email.open is covered by email.*: not sent twice.
    expect(posted[0]).toEqual({ url: 'ftp://example.com/hook', events: ['email.*', 'purchase'], enabled: true });

    refuse = false;
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: 'https://example.com/hook' } });
    submit();
    expect((await screen.findByLabelText('Signing secret value')).textContent).toBe(created.secret);
    expect(screen.getByRole('button', { name: 'Copy the signing secret' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'I copied it: open the endpoint' }).getAttribute('href')).toBe('/p/p1/webhooks/w1');
    const cached = JSON.stringify([...queryClient.getQueryCache().getAll(), ...queryClient.getMutationCache().getAll()].map((q) => q.state.data));
    expect(cached).toContain('"id":"w1"');
    expect(cached).not.toContain('whsec_');
  });
});
