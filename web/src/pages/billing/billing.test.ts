import { describe, expect, it } from 'vitest';
import { parseLimit } from './index';
import { parseEmails } from '../segments/SegmentDetailPage';
import { parseValue } from '../workflows/StepConfigForm';

describe('form parsing', () => {
  it('reads billing limits: empty is no limit, digits a number, anything else left for the API to name', () => {
    expect(parseLimit('')).toBeNull();
    expect(parseLimit(' 10,000 ')).toBe(10000);
    expect(parseLimit('ten')).toBe('ten');
  });
  it('reads pasted addresses, one per line or separated, without repeats', () => {
    expect(parseEmails('a@x.org\nb@x.org, c@x.org;a@x.org  ')).toEqual(['a@x.org', 'b@x.org', 'c@x.org']);
  });
  it('types condition values', () => {
    expect(parseValue('true')).toBe(true);
    expect(parseValue('42')).toBe(42);
    expect(parseValue('pro')).toBe('pro');
    expect(parseValue('')).toBe('');
  });
});

describe('member file', () => {
  it('finds the addresses of a CSV', async () => {
    const { emailsInText } = await import('../segments/SegmentDetailPage');
    expect(emailsInText('email,name\n"ada@example.org",Ada\ngrace@example.org,Grace\nada@example.org,again')).toEqual(['ada@example.org', 'grace@example.org']);
  });
});
