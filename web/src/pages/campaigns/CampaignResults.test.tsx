import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../api/campaigns';
import { CampaignResults } from './CampaignResults';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const campaign = { id: 'c1', name: 'News', status: 'SENT', sentAt: '2026-03-01T09:30:00.000Z' } as Campaign;
const row = (email: string, status: string, over: Record<string, unknown> = {}) => ({
  emailId: `e-${email}`,
  contactId: `cnt_${email}`,
  email,
  status,
  skipReason: null,
  sentAt: '2026-03-01T09:30:00.000Z',
  deliveredAt: null,
  openedAt: null,
  clickedAt: null,
  bouncedAt: null,
  complainedAt: null,
  openCount: 0,
  clickCount: 0,
  ...over,
});

describe('campaign page: results', () => {
  it('filters the recipients by status through the address, searches, and pages with the cursor', async () => {
    const asked: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        let body: unknown = { data: [] };
        if (url.pathname.endsWith('/recipients')) {
          asked.push(url);
          body = url.searchParams.get('cursor')
            ? { data: [row('zed@example.com', 'clicked')], cursor: null, hasMore: false, total: 0 }
            : url.searchParams.get('status') === 'clicked'
              ? { data: [row('ann@example.com', 'clicked', { clickedAt: '2026-03-01T10:00:00.000Z', clickCount: 3 })], cursor: 'next', hasMore: true, total: 2 }
              : { data: [row('gone@example.com', 'skipped', { skipReason: 'unsubscribed', sentAt: null })], cursor: null, hasMore: false, total: 1 };
        }
        if (url.pathname.endsWith('/timeline')) body = { sentAt: campaign.sentAt, interval: 'hour', data: [] };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
          <Routes>
            <Route path="/p/:projectId/campaigns/:campaignId" element={<CampaignResults campaign={campaign} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const gone = await screen.findByText('gone@example.com');
    expect(gone.closest('tr')!.textContent).toContain('skipped unsubscribed');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'clicked' } });
    const ann = await screen.findByRole('link', { name: 'ann@example.com' });
    expect(ann.getAttribute('href')).toBe('/p/p1/contacts/cnt_ann@example.com');
    expect(screen.getByText(/2 recipients clicked; showing 1/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more recipients' }));
    await screen.findByText('zed@example.com');
    expect(asked.at(-1)!.searchParams.get('cursor')).toBe('next');
    expect(asked.at(-1)!.searchParams.get('status')).toBe('clicked');
    fireEvent.change(screen.getByLabelText('Search by email'), { target: { value: 'ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('search')).toBe('ann'));
    expect(asked.every((u) => u.pathname === '/campaigns/c1/recipients')).toBe(true);
  });
});
