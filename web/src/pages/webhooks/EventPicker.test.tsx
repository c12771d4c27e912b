import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { EventPicker } from './EventPicker';

afterEach(cleanup);

function Harness({ initial = [], onEvents }: { initial?: string[]; onEvents: (events: string[]) => void }) {
  const [events, setEvents] = useState(initial);
  return (
    <EventPicker
      value={events}
      projectNames={['purchase', 'segment.vip.entry']}
      onChange={(next) => {
        setEvents(next);
        onEvents(next);
      }}
    />
  );
}

describe('EventPicker', () => {
  it('checks names and patterns, shows what a pattern includes, and keeps typed names after the checked ones', () => {
    let last: string[] = [];
    render(<Harness onEvents={(e) => (last = e)} />);
    expect(screen.getByRole('group', { name: 'Events to send' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /^Bounced/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /^purchase/ }));
    expect(last).toEqual(['email.bounce', 'purchase']);
    fireEvent.change(screen.getByLabelText('Other event names or patterns'), { target: { value: 'order.paid, order.*' } });
    expect(last).toEqual(['email.bounce', 'purchase', 'order.paid', 'order.*']);
    fireEvent.click(screen.getByRole('checkbox', { name: /^Every email event/ }));
    const bounced = screen.getByRole('checkbox', { name: /^Bounced/ }) as HTMLInputElement;
    expect(bounced.checked && bounced.disabled).toBe(true);
    expect(bounced.labels?.[0].textContent).toContain('included by email.*');
    fireEvent.click(screen.getByRole('checkbox', { name: /^Every email event/ }));
    expect(last).toEqual(['email.bounce', 'purchase', 'order.paid', 'order.*']);
    expect(screen.getByRole('checkbox', { name: /^Joined vip/ })).toBeTruthy();
  });

  it('includes everything under "all events", and says so', () => {
    render(<Harness initial={['*']} onEvents={() => {}} />);
    const sent = screen.getByRole('checkbox', { name: /^Sent/ }) as HTMLInputElement;
    expect(sent.checked && sent.disabled).toBe(true);
    expect(sent.labels?.[0].textContent).toContain('included by all events');
  });
});
