import { EmailEvents } from './engine/email-events';
import type { LoadedEmail } from './email-status.rows';
import type { EventsService } from '../events/events.service';
import { isTestCopy, testCopyContact } from './test-copy';

const email = (over: Partial<LoadedEmail>): LoadedEmail =>
  ({ id: 'e1', projectId: 'p1', contactId: 'cnt_1', templateId: null, campaignId: null, type: 'MARKETING', fromAddress: 'a@x.test', toAddress: 'b@x.test', variables: null, ...over }) as LoadedEmail;

describe('test copies', () => {
  it('are project emails without a contact (account mail is not one)', () => {
    expect(isTestCopy({ projectId: 'p1', contactId: null })).toBe(true);
    expect(isTestCopy({ projectId: 'p1', contactId: 'cnt_1' })).toBe(false);
    expect(isTestCopy({ projectId: null, contactId: null })).toBe(false);
  });

  it('render as the contact their variables name, only when both id and email are there', () => {
    expect(testCopyContact({ id: 'cnt_1', email: 'ada@x.test', firstName: 'Ada' })).toEqual({ id: 'cnt_1', email: 'ada@x.test' });
    expect(testCopyContact({ firstName: 'Ada' })).toBeNull();
    expect(testCopyContact(null)).toBeNull();
  });

  it('emit no events (so no activity, webhook or timeline entry), unlike a contact email', () => {
    const events = new EmailEvents({} as EventsService);
    expect(events.payloads(email({ contactId: null }), 'Hi', ['email.sent', 'email.delivery'])).toEqual([]);
    expect(events.payloads(email({}), 'Hi', ['email.sent']).map((e) => e.name)).toEqual(['email.sent']);
  });
});
