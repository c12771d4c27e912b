import { describeRefusedSend } from './send-refusal';

describe('describeRefusedSend', () => {
  const campaign = { id: 'c1', name: 'News', subject: 'Hello', from: 'news@example.com', status: 'DRAFT', audienceType: 'SEGMENT', segmentId: 's1' };

  it('says what would be sent to how many, without the skipped, and how to confirm', () => {
    const text = describeRefusedSend(campaign, { totalRecipients: 12, skippedCount: 2, skipped: { unsubscribed: 2, suppressed: 0 } }, '2030-01-01T09:00:00Z');
    expect(text).toBe(
      [
        'Not sent: sending a campaign needs confirm: true.',
        'Campaign "News" (c1, status DRAFT) with subject "Hello" from news@example.com would be scheduled for 2030-01-01T09:00:00Z to 10 recipients (segment s1). 2 more of the audience would be skipped (2 unsubscribed).',
        'Ask the user to approve, then call send_campaign again with confirm: true.',
      ].join('\n'),
    );
  });

  it('counts one recipient in the singular', () => {
    expect(describeRefusedSend({ ...campaign, audienceType: 'ALL' }, { totalRecipients: 1, skippedCount: 0, skipped: {} })).toContain('would be sent now to 1 recipient (all contacts).\n');
  });
});
