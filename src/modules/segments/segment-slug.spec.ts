import { segmentEventNames, segmentSlug } from './segment-slug';

describe('segmentSlug', () => {
  it.each([
    ['VIP Customers', 'vip-customers'],
    ['  Power   users!! ', 'power-users'],
    ['a - b', 'a-b'],
    ['--Über café--', 'ber-caf'],
    ['snake_case stays', 'snake_case-stays'],
  ])('%s → %s', (name, slug) => expect(segmentSlug(name)).toBe(slug));

  it('names the entry and exit events', () => {
    expect(segmentEventNames('!!', 'abc')).toEqual({ entry: 'segment.abc.entry', exit: 'segment.abc.exit' });
    expect(segmentEventNames('VIP Customers', 'abc')).toEqual({ entry: 'segment.vip-customers.entry', exit: 'segment.vip-customers.exit' });
  });
});
