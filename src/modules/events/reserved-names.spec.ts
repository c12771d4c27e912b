import { isReservedEventName } from './reserved-names';

describe('isReservedEventName', () => {
  it.each(['email.sent', 'email.open', 'email.', 'EMAIL.click', ' email.bounce ', 'contact.subscribed', 'Contact.Unsubscribed', 'contact.confirmed', 'contact.snoozed', 'contact.topic.subscribed', 'Contact.Topic.Unsubscribed', 'segment.vip.entry', 'segment.vip-customers.exit', 'segment.a.b.entry'])(
    '%p is reserved',
    (name) => expect(isReservedEventName(name)).toBe(true),
  );

  it.each(['signup', 'email', 'emails.sent', 'contact.created', 'contact.subscribed.extra', 'segment.entry', 'segment..entry', 'segment.vip.enter', 'my.email.sent'])(
    '%p is not reserved',
    (name) => expect(isReservedEventName(name)).toBe(false),
  );
});
