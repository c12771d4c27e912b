import { subscribesWhen, withoutSubscription } from './double-opt-in';

describe('double opt-in input rules', () => {
  it('knows which upserts would subscribe the contact', () => {
    expect(subscribesWhen({ subscribed: true, defaultSubscribed: false })).toBe('always');
    expect(subscribesWhen({ defaultSubscribed: true })).toBe('new');
    expect(subscribesWhen({ defaultSubscribed: false })).toBeNull();
    expect(subscribesWhen({ subscribed: false, defaultSubscribed: true })).toBeNull();
  });

  it('writes without subscribing, and keeps an explicit unsubscribe', () => {
    expect(withoutSubscription({ email: 'a@b.c', subscribed: true, defaultSubscribed: true }, 'always')).toEqual({ email: 'a@b.c', subscribed: undefined, defaultSubscribed: false, confirm: 'always' });
    expect(withoutSubscription({ subscribed: false, defaultSubscribed: true }, 'new')).toEqual({ subscribed: false, defaultSubscribed: false, confirm: 'new' });
  });
});
