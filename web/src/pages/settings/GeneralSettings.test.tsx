import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '../../api/types';
import { SettingsForm } from './GeneralSettings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const project: Project = {
  id: 'p1',
  name: 'Acme',
  publicPrefix: 'pk_1',
  secretPrefix: 'sk_1',
  disabled: false,
  disabledReason: null,
  tracking: 'ENABLED',
  language: 'en',
  defaultFrom: { email: 'hello@acme.test', name: 'Acme' },
  doubleOptIn: { enabled: false, templateId: null, redirectUrl: null },
  retention: { eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 },
  role: 'OWNER',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Renders the form against a fetch that answers each PATCH with `answer(body)`; returns the PATCH bodies sent. */
function renderForm(answer: (body: Record<string, unknown>) => Response, initial: Project = project) {
  const sent: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SettingsForm project={initial} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('project settings: default sender', () => {
  it('shows the default sender and sends it only when it changed', async () => {
    const sent = renderForm((body) => json(200, { ...project, ...body }));
    expect(field('Default sender address').value).toBe('hello@acme.test');
    expect(field('Default sender name').value).toBe('Acme');
    save();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).not.toHaveProperty('defaultFrom');

    fireEvent.change(field('Default sender address'), { target: { value: ' news@acme.test ' } });
    fireEvent.change(field('Default sender name'), { target: { value: '' } });
    save();
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].defaultFrom).toEqual({ email: 'news@acme.test', name: null });
  });

  it('clears it with an empty address', async () => {
    const sent = renderForm((body) => json(200, { ...project, ...body }));
    fireEvent.change(field('Default sender address'), { target: { value: '' } });
    save();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].defaultFrom).toBeNull();
  });

  it("shows the API's refusal at the address field", async () => {
    const message = 'defaultFrom.email must be on a verified domain of this project (hi@elsewhere.example is not)';
    renderForm(() =>
      json(422, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', errors: [{ field: 'defaultFrom.email', code: 'domain_not_verified', message }] } }),
    );
    fireEvent.change(field('Default sender address'), { target: { value: 'hi@elsewhere.example' } });
    save();
    await waitFor(() => expect(field('Default sender address').getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${field('Default sender address').id}-error`)?.textContent).toBe(message);
  });
});
