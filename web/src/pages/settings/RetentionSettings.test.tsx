import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '../../api/types';
import { testProject } from '../../testing/fixtures';
import { RetentionSettings } from './RetentionSettings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const HELD = {
  tables: [
    { name: 'events', rows: 1200, rowsEstimated: false, bytes: 350_000, oldestAt: '2026-01-02T00:00:00.000Z' },
    { name: 'emails', rows: 250_000, rowsEstimated: true, bytes: 90_000_000, oldestAt: null },
  ],
  measuredAt: '2026-02-01T00:00:00.000Z',
};

/** Renders the section against a fetch answering the storage view, and each PATCH with `answer(body)`; returns the PATCH bodies sent. */
function renderSection(project: Project, answer: (body: Record<string, unknown>) => Response = (body) => json(200, { ...project, ...body })) {
  const sent: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      if (request.method === 'GET') return json(200, HELD);
      const body = (await request.json()) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RetentionSettings project={project} />
    </QueryClientProvider>,
  );
  return sent;
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('project settings: data retention', () => {
  it('shows the periods (empty: kept forever) and sends all four, an emptied field as null', async () => {
    const sent = renderSection(testProject());
    expect(field('Email content (days)').value).toBe('30');
    expect(field('Events (days)').value).toBe('');
    fireEvent.change(field('Email content (days)'), { target: { value: '' } });
    fireEvent.change(field('Events (days)'), { target: { value: '365' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save retention' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ retention: { emailContentDays: null, inboundDays: 30, eventsDays: 365, emailsDays: null } });
  });

  it("shows the service's refusal beside its field", async () => {
    renderSection(testProject(), () => json(422, { error: { code: 'VALIDATION_ERROR', message: 'Invalid body', errors: [{ field: 'retention.inboundDays', code: 'too_big', message: 'retention.inboundDays must be at most 3650 days' }] } }));
    fireEvent.change(field('Received mail (days)'), { target: { value: '4000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save retention' }));
    expect(await screen.findByText('retention.inboundDays must be at most 3650 days')).toBeTruthy();
  });

  it('lists what is held, estimates marked', async () => {
    renderSection(testProject());
    expect(await screen.findByRole('rowheader', { name: 'Events' })).toBeTruthy();
    expect(screen.getByText('about 250,000')).toBeTruthy();
    expect(screen.getByText('342 KB')).toBeTruthy();
  });

  it('is read-only for a member', () => {
    renderSection(testProject({ role: 'MEMBER' }));
    expect(field('Events (days)').disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save retention' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
