import { assert, type Journey, see, until, waitForMail } from '../harness';

const READER = 'consent-reader@example.net';

/**
 * Consent end to end: create a topic, send a MARKETING campaign to that topic, open the
 * preference centre from the footer of the received email (the service's outbox), leave the
 * topic there with a plain form post, and see the contact page show it.
 */
export const consentJourney: Journey = {
  name: 'consent',
  async run({ page, projectUrl, shot, state, service }) {
    await page.goto(projectUrl('topics'));
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create topic' }) });
    await form.getByLabel('Name', { exact: true }).fill('Weekly digest');
    await form.getByRole('button', { name: 'Create topic' }).click();
    await see(page.getByRole('table', { name: 'Topics' }).getByRole('cell', { name: 'weekly-digest' }));

    // The reader, subscribed (the dashboard's own API call, with its session).
    const created = await page.request.post(`${service.baseUrl}/contacts`, {
      headers: { 'X-Project-Id': state.projectId!, 'X-Requested-With': 'XMLHttpRequest' },
      data: { email: READER, subscribed: true },
    });
    assert(created.ok(), `the reader is created (${created.status()})`);

    await page.goto(projectUrl('campaigns/new'));
    await see(page.getByRole('heading', { name: 'New campaign' }));
    await page.getByLabel('Campaign name').fill('Weekly digest #1');
    await page.getByLabel('Start from a template').selectOption({ label: state.templateName ?? 'Welcome email' });
    await until('the template fills the subject', async () => (await page.getByLabel('Subject', { exact: true }).inputValue()) !== '');
    await page.getByLabel('Subject', { exact: true }).fill('This week');
    await page.getByLabel('Email type').selectOption('MARKETING');
    await page.getByRole('radio', { name: 'Contacts matching filters' }).check();
    await page.getByLabel('Group 1 filter 1 operator').selectOption('contains');
    await page.getByLabel('Group 1 filter 1 value').fill('consent-reader@');
    await page.getByLabel('Topic', { exact: true }).selectOption({ label: 'Weekly digest' });
    await shot('campaign-topic');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await see(page.getByRole('heading', { name: 'Weekly digest #1' }));
    await page.getByRole('button', { name: 'Send now' }).click();
    // Confirmed in the dialog (the topic narrows the audience it shows), it starts after the 10 s cancel window.
    await page.getByRole('alertdialog', { name: 'Send Weekly digest #1 now?' }).getByRole('button', { name: 'Send', exact: true }).click();
    await until('the campaign is SENT', async () => (await page.locator('.badge').filter({ hasText: /^sent$/ }).count()) > 0, 60_000);

    // The email's footer links to the preference centre.
    const mail = await waitForMail(service, [new RegExp(`To: ${READER}`, 'i'), /This week/]);
    const manage = /https?:\/\/[^\s"<>]+\/m\/[A-Za-z0-9_-]+/.exec(mail)?.[0];
    assert(manage, 'the MARKETING footer links to the preference centre');
    await page.goto(manage);
    await see(page.getByRole('heading', { name: 'Email preferences' }));
    const box = page.getByRole('checkbox', { name: 'Weekly digest' });
    assert(await box.isChecked(), 'an opt-out topic is checked until the reader leaves it');
    await shot('preference-centre');
    await box.uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Your preferences have been saved.' }));
    assert(!(await page.getByRole('checkbox', { name: 'Weekly digest' }).isChecked()), 'the topic is left');
    await shot('preference-centre-saved');

    // The contact page shows it.
    await page.goto(projectUrl(`contacts?search=${encodeURIComponent(READER)}`));
    await page.getByRole('link', { name: READER }).click();
    const consent = page.getByRole('region', { name: 'Topics and snooze' });
    await see(consent.getByText('Not a member'));
    await see(page.getByText('contact.topic.unsubscribed'));
    await shot('contact-left-topic');

    // Double opt-in in the project settings, with the confirmation email's preview.
    await page.goto(projectUrl('settings'));
    const doi = page.getByRole('region', { name: 'Double opt-in' });
    await see(doi.getByText(/^The built-in message, here in the project/));
    await see(doi.frameLocator('iframe[title="Confirmation email preview"]').getByRole('link', { name: 'Confirm subscription' }));
    await doi.getByLabel('Confirmation email').selectOption({ label: state.templateName ?? 'Welcome email' });
    await see(doi.getByText(/does not use \{\{confirmUrl\}\}/));
    await see(doi.frameLocator('iframe[title="Confirmation email preview"]').locator('body'));
    await doi.getByLabel('Confirmation email').selectOption({ label: 'Built-in message (localized)' });
    await doi.getByLabel('Ask new subscribers to confirm by email').check();
    await doi.getByRole('button', { name: 'Save double opt-in' }).click();
    await see(doi.getByText('Saved.'));
    await shot('settings-double-opt-in');

    // The reader unsubscribed from everything is asked to confirm again from its contact page.
    await page.goto(manage);
    await page.getByRole('button', { name: 'Unsubscribe from everything' }).click();
    await see(page.getByRole('button', { name: 'Subscribe' }));
    await page.goto(projectUrl(`contacts?search=${encodeURIComponent(READER)}`));
    await page.getByRole('link', { name: READER }).click();
    await see(page.getByText('Never asked to confirm.'));
    await page.getByRole('button', { name: 'Send confirmation email' }).click();
    await see(page.getByText('Confirmation pending'));
    await waitForMail(service, [new RegExp(`To: ${READER}`, 'i'), /Confirm your subscription/]);
    await page.getByRole('button', { name: 'Resend confirmation' }).click();
    await see(page.getByText(/less than 10 minutes ago/));
    await shot('contact-confirmation-pending');
    await page.goto(projectUrl('contacts?confirmation=pending'));
    await see(page.getByRole('link', { name: READER }));
  },
};
