import { assert, focused, hasFocusWithin, type Journey, see, until } from '../harness';

const statValue = async (page: import('playwright-core').Page, label: string) =>
  Number(((await page.locator('.stat-grid div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd').textContent()) ?? '').replace(/,/g, ''));

/**
 * Compose a campaign from the template, to the segment of the segments journey; preview; send now
 * (confirmation by keyboard, the 10 s cancel window: cancelled nothing is sent, confirmed it is);
 * watch stats to SENT.
 */
export const campaignsJourney: Journey = {
  name: 'campaigns',
  async run({ page, baseUrl, projectUrl, shot, state }) {
    await page.goto(projectUrl('campaigns'));
    await see(page.getByRole('heading', { name: 'No campaigns yet' }));
    await shot('list-empty');
    await page.getByRole('link', { name: 'New campaign' }).first().click();
    await see(page.getByRole('heading', { name: 'New campaign' }));
    await page.getByLabel('Campaign name').fill('Pro newsletter');
    await page.getByLabel('Start from a template').selectOption({ label: state.templateName ?? 'Welcome email' });
    await until('the template fills the subject', async () => (await page.getByLabel('Subject', { exact: true }).inputValue()) !== '');
    assert((await page.getByLabel('From address').inputValue()) === state.fromAddress, 'the sender comes from the template');
    await page.getByLabel('Subject', { exact: true }).fill('News for pro users');

    // The segment of the segments journey, then filters with a live count (saved: every imported contact).
    await page.getByRole('radio', { name: 'A segment' }).check();
    const segmentSelect = page.getByLabel('Segment', { exact: true });
    const option = await segmentSelect.locator('option', { hasText: state.segmentName ?? 'Pro plan' }).getAttribute('value');
    await segmentSelect.selectOption(option!);
    await shot('compose-segment');
    await page.getByRole('radio', { name: 'Contacts matching filters' }).check();
    await page.getByLabel('Group 1 filter 1 operator').selectOption('contains');
    await page.getByLabel('Group 1 filter 1 value').fill('@example.org');
    const count = page.getByRole('status', { name: 'Matching contacts' });
    await see(count.filter({ hasText: /\d+ contacts match now/ }), 20_000);
    const matching = Number(/(\d[\d,]*) contacts match/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    await shot('compose-filtered');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await see(page.getByRole('heading', { name: 'Pro newsletter' }));
    await see(page.getByRole('heading', { name: 'Audience if sent now' }));
    state.campaignId = /\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    // The earlier journeys unsubscribed every imported contact: a marketing email would skip them.
    await see(page.getByRole('list', { name: 'Skipped contacts by reason' }).getByText(/unsubscribed/));
    await shot('draft-preview');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Email type').selectOption('TRANSACTIONAL');
    await page.getByRole('button', { name: 'Save campaign' }).click();
    await see(page.getByRole('heading', { name: 'Audience if sent now' }));
    await until('nobody is skipped for a transactional email', async () => (await page.getByRole('list', { name: 'Skipped contacts by reason' }).count()) === 0);
    await shot('draft-transactional');

    // A test copy.
    await page.getByLabel('Send the test to').fill('test-inbox@example.net');
    await page.getByRole('button', { name: 'Send test' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Test sent to test-inbox@example.net.' }));

    // Send now asks first, showing the audience after skips, the sender and the subject; the dialog is a keyboard one.
    const sendNow = page.getByRole('button', { name: 'Send now' });
    const dialog = page.getByRole('alertdialog', { name: 'Send Pro newsletter now?' });
    await sendNow.focus();
    await page.keyboard.press('Enter');
    await see(dialog);
    await see(dialog.getByText(new RegExp(`^${matching.toLocaleString('en-US')} contacts$`)));
    await see(dialog.getByText(state.fromAddress!, { exact: true }));
    await see(dialog.getByText('News for pro users', { exact: true }));
    await shot('send-confirm');
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      assert(await hasFocusWithin(dialog), `Tab ${i + 1} keeps the focus inside the dialog (it is on ${await focused(page)})`);
    }
    await page.keyboard.press('Escape');
    await until('Escape closes the dialog', async () => (await dialog.count()) === 0);
    await until('the focus returns to Send now', () => hasFocusWithin(sendNow));

    // Confirmed, the send waits 10 s (scheduled through the API); cancelled in that window, nothing is sent.
    const campaignApi = () => page.request.get(`${baseUrl}/campaigns/${state.campaignId}`, { headers: { 'X-Project-Id': state.projectId! } }).then((r) => r.json());
    await sendNow.click();
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    const window = page.getByText(/Sending in \d+ s…/);
    await see(window);
    await shot('cancel-window');
    assert((await campaignApi()).status === 'SCHEDULED', 'the send waits on the server, not in the page');
    await page.getByRole('button', { name: 'Cancel sending' }).click();
    await see(page.getByRole('status', { name: 'Notifications' }).getByText('Send cancelled: nothing was sent.'));
    await see(page.getByRole('button', { name: 'Send now' }));
    const cancelled = await campaignApi();
    assert(cancelled.status === 'DRAFT' && cancelled.scheduledFor === null && cancelled.sentAt === null, `cancelled, the campaign is a draft again (${cancelled.status})`);

    // Confirmed again (clicked twice: one send), it starts once the window is over.
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirmedAt = Date.now();
    await dialog.getByRole('button', { name: 'Send', exact: true }).dblclick();
    await see(window);
    await see(page.getByRole('heading', { name: 'Statistics' }), 60_000);
    await until('the campaign is SENT', async () => (await page.locator('.badge').filter({ hasText: /^sent$/ }).count()) > 0, 60_000);
    await until('the stats count every recipient', async () => {
      const sent = await campaignApi();
    // Started by the second confirmation's schedule: the cancelled one, due seconds earlier, sent nothing.
    assert(new Date(sent.sentAt).getTime() >= confirmedAt + 8_000, `the send started when the window ended (${sent.sentAt}, confirmed at ${new Date(confirmedAt).toISOString()})`);
    const total = await statValue(page, 'Recipients');
      return total > 0 && (await statValue(page, 'Sent')) + (await statValue(page, 'Skipped')) === total;
    }, 30_000);
    const sent = await campaignApi();
    // Started by the second confirmation's schedule: the cancelled one, due seconds earlier, sent nothing.
    assert(new Date(sent.sentAt).getTime() >= confirmedAt + 8_000, `the send started when the window ended (${sent.sentAt}, confirmed at ${new Date(confirmedAt).toISOString()})`);
    const total = await statValue(page, 'Recipients');
    assert(total === matching, `the audience is what the live count showed (${total} vs ${matching})`);
    assert((await statValue(page, 'Sent')) > 0, 'subscribed contacts were sent the campaign');
    await shot('sent-stats');

    await page.goto(projectUrl('campaigns?status=SENT'));
    await see(page.getByRole('link', { name: 'Pro newsletter' }));
    await shot('list-sent');
    await page.getByLabel('Search', { exact: true }).fill('no such campaign');
    await see(page.getByRole('heading', { name: 'No campaign matches' }));
    await page.getByLabel('Search', { exact: true }).fill('newsletter');
    await see(page.getByRole('link', { name: 'Pro newsletter' }));
  },
};
