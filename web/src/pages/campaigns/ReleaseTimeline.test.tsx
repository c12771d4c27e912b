import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../api/campaigns';
import { ReleaseTimeline } from './ReleaseTimeline';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTimeline(c: Campaign, stats: { waiting: number; nextBatchAt: string | null }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ totalRecipients: 10, sentCount: 4, deliveredCount: 4, openedCount: 0, clickedCount: 0, bouncedCount: 0, complainedCount: 0, unsubscribedCount: 0, skippedCount: 0, abTest: null, ...stats }), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
        <Routes>
          <Route path="/p/:projectId/campaigns/:id" element={<ReleaseTimeline campaign={c} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const plain = { id: 'c1', name: 'News', status: 'SENDING', delivery: null, timezone: null, localScheduledFor: null, fallbackTimezone: null } as unknown as Campaign;

describe('campaign page: release timeline', () => {
  it('says when the domain warm-up holds a campaign without delivery settings, and until when', async () => {
    renderTimeline(plain, { waiting: 6, nextBatchAt: '2026-11-29T00:00:00.000Z' });
    expect(await screen.findByText(/warm-up cap for today is reached/)).toBeTruthy();
    expect((await screen.findByTestId('release-waiting')).textContent).toBe('6 recipients');
    expect(screen.getByTestId('release-next').textContent).not.toBe('Now');
  });

  it('shows nothing for a campaign without delivery settings that is not held', async () => {
    renderTimeline(plain, { waiting: 0, nextBatchAt: null });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: 'Release timeline' })).toBeNull();
  });

  it('describes waves and a window', async () => {
    renderTimeline({ ...plain, delivery: { batchSize: 500, intervalMinutes: 30, window: { days: ['mon', 'tue'], from: '08:00', to: '18:00', timezone: 'Europe/Paris' } } } as Campaign, { waiting: 20, nextBatchAt: null });
    expect(await screen.findByText('Waves of 500 every 30 min')).toBeTruthy();
    expect(screen.getByText('Window Mon, Tue 08:00–18:00 (Europe/Paris)')).toBeTruthy();
    expect((await screen.findByTestId('release-next')).textContent).toBe('Now');
  });
});
