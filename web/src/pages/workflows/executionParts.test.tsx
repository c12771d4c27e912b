import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../api/workflows';
import { formatDate } from '../../lib/format';
import { stepNameOf, WaitingNote } from './executionParts';

afterEach(cleanup);

describe('an execution as people read it', () => {
  it('says until when a wait lasts, in the user zone with the zone named, or which event it waits for', () => {
    const until = '2026-03-05T13:30:00.000Z';
    const { container, rerender } = render(<WaitingNote execution={{ status: 'WAITING', waitingUntil: until, waitingFor: null }} />);
    expect(container.textContent).toBe(`waiting until ${formatDate(until)}`);
    expect(container.querySelector('time')?.getAttribute('dateTime')).toBe(until);
    rerender(<WaitingNote execution={{ status: 'WAITING', waitingUntil: null, waitingFor: 'replied' }} />);
    expect(container.textContent).toBe('waiting for replied (no timeout)');
    rerender(<WaitingNote execution={{ status: 'WAITING', waitingUntil: until, waitingFor: 'replied' }} />);
    expect(container.textContent).toBe(`waiting for replied until ${formatDate(until)}`);
    rerender(<WaitingNote execution={{ status: 'COMPLETED', waitingUntil: null, waitingFor: null }} />);
    expect(container.textContent).toBe('');
  });

  it('names steps by their name or type, and one removed since', () => {
    const wf = { steps: [{ id: 's1', type: 'DELAY', name: 'Delay', config: {}, position: null }, { id: 's2', type: 'SEND_EMAIL', name: 'Welcome mail', config: {}, position: null }] } as unknown as Workflow;
    expect(stepNameOf(wf, 's1')).toBe('Delay');
    expect(stepNameOf(wf, 's2')).toBe('Welcome mail');
    expect(stepNameOf(wf, 'gone', 'WEBHOOK')).toBe('Webhook (since removed)');
    expect(stepNameOf(wf, 'gone')).toBe('a removed step');
    expect(stepNameOf(wf, null)).toBe('—');
  });
});
