import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Verdicts } from './Verdicts';

afterEach(cleanup);

describe('Verdicts', () => {
  it('shows SPF, DKIM and DMARC of an email.received event, pass as good and fail as bad', () => {
    render(<Verdicts data={{ spf: 'pass', dkim: 'fail', dmarc: 'temperror' }} />);
    expect(screen.getByText('SPF pass').className).toContain('badge-good');
    expect(screen.getByText('DKIM fail').className).toContain('badge-bad');
    expect(screen.getByText('DMARC temperror').className).toContain('badge-neutral');
  });

  it('reads a missing verdict as none', () => {
    render(<Verdicts data={{}} />);
    expect(screen.getByText('SPF none')).toBeTruthy();
  });
});
