import { preservingSubscription, subscribesWhen, withoutSubscription } from './double-opt-in';

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

  it('applies an explicit value to new contacts only under preserveExistingSubscription, and takes null for no value', () => {
    expect(preservingSubscription({ subscribed: false, defaultSubscribed: true }, true)).toEqual({ subscribed: undefined, defaultSubscribed: false });
    expect(preservingSubscription({ subscribed: true, defaultSubscribed: false }, true)).toEqual({ subscribed: undefined, defaultSubscribed: true });
    expect(preservingSubscription({ subscribed: false, defaultSubscribed: true }, false)).toEqual({ subscribed: false, defaultSubscribed: true });
    const fromJson = { subscribed: null as unknown as boolean, defaultSubscribed: true };
    expect(preservingSubscription(fromJson, true)).toBe(fromJson);
  });
});
