import { assert, type Journey, see, until } from '../harness';

/**
 * Delivery control in the composer: a campaign to all contacts in waves of one every 30 minutes,
 * inside a window (a window whose end is not after its start is refused at the field); sent now,
 * the campaign page's release timeline shows who waits and when the next wave goes; then stopped.
 */
export const deliveryJourney: Journey = {
  name: 'delivery',
  async run({ page, baseUrl, projectUrl, shot, state }) {
    await page.goto(projectUrl('campaigns/new'));
    await see(page.getByRole('heading', { name: 'New campaign' }));
    await page.getByLabel('Campaign name').fill('Gradual news');
    await page.getByLabel('Start from a template').selectOption({ label: state.templateName ?? 'Welcome email' });
    await until('the template fills the subject', async () => (await page.getByLabel('Subject', { exact: true }).inputValue()) !== '');
    await page.getByLabel('Email type').selectOption('TRANSACTIONAL');
    await page.getByLabel('Send in waves').check();
    await page.getByLabel('Recipients per wave').fill('1');
    await page.getByLabel('Minutes between waves').fill('30');
    await page.getByLabel('Only inside a sending window').check();
    for (const day of ['Sat', 'Sun']) await page.getByRole('group', { name: 'Window days' }).getByLabel(day).check();
    await page.getByLabel('From', { exact: true }).fill('09:00');
    await page.getByLabel('To', { exact: true }).fill('08:00');
    await page.getByLabel('Window time zone').fill('UTC');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await see(page.getByText('to must be later than from'));
    await shot('window-refused');
    await page.getByLabel('From', { exact: true }).fill('00:00');
    await page.getByLabel('To', { exact: true }).fill('24:00');
    await shot('compose-delivery');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await see(page.getByRole('heading', { name: 'Gradual news' }));
    const timeline = page.getByRole('region', { name: 'Release timeline' });
    await see(timeline.getByText('Waves of 1 every 30 min'));
    await see(timeline.getByText(/Window Mon, Tue, Wed, Thu, Fri, Sat, Sun 00:00–24:00 \(UTC\)/));

    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send', exact: true }).click();
    await see(timeline.getByTestId('release-waiting'), 60_000);
    const id = /\/campaigns\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    const stats = await page.request.get(`${baseUrl}/campaigns/${id}/stats`, { headers: { 'X-Project-Id': state.projectId! } }).then((r) => r.json());
    await until('one wave is written, the rest waits for the next', async () => /\d/.test((await timeline.getByTestId('release-next').textContent()) ?? ''), 30_000);
    assert(stats.totalRecipients <= 1, `the first wave holds one recipient (${stats.totalRecipients})`);
    await shot('release-timeline');
    await page.getByRole('button', { name: 'Stop sending' }).click();
    await see(page.getByRole('status', { name: 'Notifications' }).getByText('Sending stopped.'));
  },
};
