import { deliveryBody, testBody } from './delivery-body';

describe('deliveryBody', () => {
  const event = { id: '7d0f1e2a-0000-4000-8000-000000000001', name: 'email.click', createdAt: new Date('2026-01-02T03:04:05.678Z'), contactId: 'cnt_1', data: { emailId: 'e1', campaignId: null, link: 'https://example.com' } };

  it('is {id, type, timestamp, data} with the contact first and the event data after it', () => {
    const text = deliveryBody(event, 'a@example.com');
    expect(text).toBe(
      '{"id":"7d0f1e2a-0000-4000-8000-000000000001","type":"email.click","timestamp":"2026-01-02T03:04:05.678Z","data":{"contact":{"id":"cnt_1","email":"a@example.com"},"emailId":"e1","campaignId":null,"link":"https://example.com"}}',
    );
  });

  it('has contact null for an event without a contact (or one whose address is gone)', () => {
    expect(JSON.parse(deliveryBody({ ...event, contactId: null }, undefined)).data.contact).toBeNull();
    expect(JSON.parse(deliveryBody(event, undefined)).data.contact).toBeNull();
  });

  it("keeps the service's contact when the event's own data has a contact key", () => {
    const body = JSON.parse(deliveryBody({ ...event, data: { contact: 'spoofed', x: 1 } }, 'a@example.com'));
    expect(body.data).toEqual({ contact: { id: 'cnt_1', email: 'a@example.com' }, x: 1 });
    expect(Object.keys(body.data)[0]).toBe('contact');
  });

  it('makes a webhook.test body', () => {
    expect(JSON.parse(testBody('t1', new Date('2026-01-01T00:00:00.000Z')))).toEqual({ id: 't1', type: 'webhook.test', timestamp: '2026-01-01T00:00:00.000Z', data: { contact: null, test: true } });
  });
});
