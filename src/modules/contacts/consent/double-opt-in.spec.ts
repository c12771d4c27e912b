import { wantsSubscription, withoutSubscription } from './double-opt-in';

describe('double opt-in input rules', () => {
  it('knows which upserts would subscribe the contact', () => {
    expect(wantsSubscription({ subscribed: true, defaultSubscribed: false })).toBe(true);
    expect(wantsSubscription({ defaultSubscribed: true })).toBe(true);
    expect(wantsSubscription({ defaultSubscribed: false })).toBe(false);
    expect(wantsSubscription({ subscribed: false, defaultSubscribed: true })).toBe(false);
  });

  it('writes without subscribing, and keeps an explicit unsubscribe', () => {
    expect(withoutSubscription({ email: 'a@b.c', subscribed: true, defaultSubscribed: true })).toEqual({ email: 'a@b.c', subscribed: undefined, defaultSubscribed: false });
    expect(withoutSubscription({ subscribed: false, defaultSubscribed: true })).toEqual({ subscribed: false, defaultSubscribed: false });
  });
});
