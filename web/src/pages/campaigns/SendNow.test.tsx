import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../api/campaigns';
import CampaignDetailPage from './CampaignDetailPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const draft = {
  id: 'c1',
  name: 'Spring news',
  status: 'DRAFT',
  subject: 'Spring is here',
  from: 'news@example.com',
  fromName: 'Example',
  replyTo: null,
  type: 'MARKETING',
  body: '<p>Hi</p>',
  audienceType: 'ALL',
  segmentId: null,
  audienceCondition: null,
  scheduledFor: null,
  sentAt: null,
} as unknown as Campaign;

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function renderPage(sends: Array<{ scheduledFor?: string }>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path === '/campaigns/c1/send') {
        const body = (await request.json()) as { scheduledFor?: string };
        sends.push(body);
        return json({ success: true, data: { id: 'c1', name: draft.name, scheduledFor: body.scheduledFor ?? null, status: 'SCHEDULED' }, message: 'Campaign scheduled' });
      }
      if (path === '/campaigns/c1/audience-preview') return json({ totalRecipients: 120, skippedCount: 20, skipped: { unsubscribed: 20 } });
      if (path === '/campaigns/c1') return json(draft);
      return new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
        <Routes>
          <Route path="/p/:projectId/campaigns/:campaignId" element={<CampaignDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('campaign page: send now', () => {
  it('asks first, showing the audience after skips, the sender and the subject', async () => {
    const sends: Array<{ scheduledFor?: string }> = [];
    renderPage(sends);
    fireEvent.click(await screen.findByRole('button', { name: 'Send now' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send Spring news now?' });
    await within(dialog).findByText('100');
    expect(dialog.textContent).toContain('100 contacts (20 of 120 skipped)');
    expect(dialog.textContent).toContain('Example <news@example.com>');
    expect(dialog.textContent).toContain('Spring is here');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sends).toEqual([]);
  });

  it('schedules the send ten seconds ahead through the API, so cancelling in that window sends nothing', async () => {
    const sends: Array<{ scheduledFor?: string }> = [];
    renderPage(sends);
    fireEvent.click(await screen.findByRole('button', { name: 'Send now' }));
    const dialog = await screen.findByRole('alertdialog');
    const before = Date.now();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    const ahead = new Date(sends[0].scheduledFor!).getTime() - before;
    expect(ahead).toBeGreaterThanOrEqual(9_900);
    expect(ahead).toBeLessThanOrEqual(11_000);
  });
});
