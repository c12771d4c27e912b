import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, CampaignStats } from '../../api/campaigns';
import { AbResults } from './AbResults';
import { abTestInput, abDraftOf } from './AbTestFields';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const campaign = { id: 'c1', name: 'News', status: 'SENDING', abTest: { variants: [{ subject: 'B', body: '<p>b</p>', fromName: null }], testPercent: 20, metric: 'clicks', waitMinutes: 60 } } as Campaign;
const variant = (v: string, clickRate: number) => ({ variant: v, subject: `Subject ${v}`, recipients: 10, delivered: 10, opened: 0, clicked: clickRate * 10, openRate: 0, clickRate });

function renderResults(ab: NonNullable<CampaignStats['abTest']>, c: Campaign = campaign) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/p/p1/campaigns/c1']}>
        <Routes>
          <Route path="/p/:projectId/campaigns/:id" element={<AbResults campaign={c} ab={ab} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('campaign page: A/B results', () => {
  it('shows each variant and picks a winner by hand during the wait', async () => {
    const calls: Array<{ url: string; body: string }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        calls.push({ url: request.url, body: await request.text() });
        return new Response(JSON.stringify({ ...campaign }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    renderResults({ phase: 'waiting', winner: null, decidedAt: null, variants: [variant('A', 0), variant('B', 0.3)] });
    expect(screen.getByText(/Waiting before picking the winner/)).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Variant B' }).textContent).toContain('30.0%');
    fireEvent.click(screen.getByRole('button', { name: 'Pick B as winner' }));
    await waitFor(() => expect(calls).toEqual([{ url: expect.stringContaining('/campaigns/c1/ab/winner'), body: '{"variant":"B"}' }]));
  });

  it('marks the winner and offers no pick once decided', () => {
    renderResults({ phase: 'winner', winner: 'B', decidedAt: '2026-11-28T00:00:00.000Z', variants: [variant('A', 0), variant('B', 0.3)] }, { ...campaign, status: 'SENT' });
    expect(screen.getByRole('row', { name: 'Variant B' }).textContent).toContain('(winner)');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('composer: A/B draft', () => {
  it('keeps a variant body set through the API when the subject changes, and saves null when off', () => {
    const draft = abDraftOf(campaign);
    expect(draft.variants).toEqual([{ subject: 'B', fromName: '', ownBody: true, body: '<p>b</p>' }]);
    expect(abTestInput({ ...draft, variants: [{ ...draft.variants[0]!, subject: 'New B' }] })).toEqual({ variants: [{ subject: 'New B', body: '<p>b</p>', fromName: null }], testPercent: 20, metric: 'clicks', waitMinutes: 60 });
    // A sender name of its own; the body unticked goes back to variant A's.
    expect(abTestInput({ ...draft, variants: [{ ...draft.variants[0]!, fromName: ' Team B ', ownBody: false }] })?.variants).toEqual([{ subject: 'B', fromName: 'Team B', body: null }]);
    expect(abTestInput({ ...draft, enabled: false })).toBeNull();
  });
});
