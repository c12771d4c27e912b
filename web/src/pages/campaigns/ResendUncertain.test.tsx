import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../api/campaigns';
import { ResendUncertain } from './CampaignDetailPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const campaign = { id: 'c1', name: 'News', status: 'SENT' } as Campaign;

describe('campaign page: uncertain emails', () => {
  it('explains them and sends them again only after a confirmation', async () => {
    const calls: Array<{ url: string; method: string }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        calls.push({ url: request.url, method: request.method });
        return new Response(JSON.stringify({ success: true, requeued: 3 }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
          <Routes>
            <Route path="/p/:projectId/campaigns/:id" element={<ResendUncertain campaign={campaign} count={3} arrivedShare={0.3} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status').textContent).toContain('may or may not have arrived');
    // How many duplicates a resend usually costs (the API's uncertainArrivedShare).
    expect(screen.getByRole('status').textContent).toContain('about 30% of uncertain emails usually arrived all the same');
    fireEvent.click(screen.getByRole('button', { name: 'Send uncertain again' }));
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(calls).toEqual([{ url: expect.stringContaining('/campaigns/c1/resend-uncertain'), method: 'POST' }]));
  });

  it('says nothing of a share the server has not measured yet', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
          <Routes>
            <Route path="/p/:projectId/campaigns/:id" element={<ResendUncertain campaign={campaign} count={2} arrivedShare={null} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status').textContent).toContain('may or may not have arrived');
    expect(screen.getByRole('status').textContent).not.toContain('usually arrived');
  });
});
