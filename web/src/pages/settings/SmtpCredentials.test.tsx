import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SmtpCredentials } from './KeysSettings';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders the panel against a `/config` answering `smtp`. */
function renderWith(smtp: { submission: boolean; inbound: boolean; submissionPort: number | null; submissionTlsPort: number | null }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ publicUrl: 'https://mail.acme.test', smtp }), { status: 200, headers: { 'Content-Type': 'application/json' } })),
  );
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <SmtpCredentials />
    </QueryClientProvider>,
  );
}

describe('SmtpCredentials', () => {
  it('shows the host from PUBLIC_URL, the ports from /config, user mailroom and "your secret key" when the relay is on', async () => {
    renderWith({ submission: true, inbound: false, submissionPort: 587, submissionTlsPort: 465 });
    expect(await screen.findByRole('heading', { name: 'SMTP relay' })).toBeTruthy();
    expect(screen.getByText('mail.acme.test')).toBeTruthy();
    expect(screen.getByText('587')).toBeTruthy();
    expect(screen.getByText('465')).toBeTruthy();
    expect(screen.getByText('mailroom')).toBeTruthy();
    expect(screen.getByText(/your secret key/)).toBeTruthy();
  });

  it('lists only the ports that are on, and nothing when the relay is off', async () => {
    renderWith({ submission: true, inbound: false, submissionPort: null, submissionTlsPort: 465 });
    expect(await screen.findByText('Port (TLS)')).toBeTruthy();
    expect(screen.queryByText('Port (STARTTLS)')).toBeNull();
    cleanup();
    const { container } = renderWith({ submission: false, inbound: true, submissionPort: null, submissionTlsPort: null });
    // Once /config has answered (and rendering had its turn), the panel is still absent.
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.textContent).toBe('');
  });
});
