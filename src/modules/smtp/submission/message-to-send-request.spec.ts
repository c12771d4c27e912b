import { simpleParser } from 'mailparser';
import { keptHeaders } from './message-to-send-request';

describe('keptHeaders (the headers a relayed copy carries)', () => {
  it("drops Resent-* fields and the client's List-Unsubscribe, keeps addressing and custom headers", async () => {
    const parsed = await simpleParser(
      [
        'From: a@acme.test',
        'To: b@example.com',
        'Resent-From: ceo@bank.example',
        'Resent-Sender: ceo@bank.example',
        'Resent-To: b@example.com',
        'List-Unsubscribe: <https://evil.example/u>',
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'X-Campaign: spring',
        'Subject: hi',
        '',
        'body',
      ].join('\r\n'),
    );
    const headers = keptHeaders(parsed);
    expect(Object.keys(headers).map((k) => k.toLowerCase()).sort()).toEqual(['to', 'x-campaign']);
  });
});
