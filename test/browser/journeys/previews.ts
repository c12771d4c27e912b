import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assert, type Journey, see, until } from '../harness';

/** Picks a contact by searching its email in the "Preview and test as a contact" panel. */
async function pickContact(page: Page, email: string): Promise<void> {
  await page.getByLabel('Find a contact').fill(email);
  const select = page.getByLabel('As contact');
  await until(`the picker offers ${email}`, async () => (await select.locator('option', { hasText: email }).count()) === 1);
  await select.selectOption({ label: email });
}

/**
 * The template (MARKETING) as a contact at both widths, rendered by the API with the footer the
 * service adds; a test send as that contact reaches the outbox and creates no contact; the campaign
 * page has the same panel.
 */
export const previewsJourney: Journey = {
  name: 'previews',
  async run({ page, baseUrl, projectUrl, shot, state, service }) {
    assert(state.templateId && state.campaignId && state.importedEmails?.length, 'needs the templates, contacts and campaigns journeys');
    const as = state.importedEmails[1];
    await page.goto(projectUrl(`templates/${state.templateId}`));
    await see(page.getByRole('heading', { name: 'Preview and test as a contact' }));
    await pickContact(page, as);

    const desktop = page.frameLocator('iframe[title="Email as the contact (desktop)"]');
    await see(desktop.getByText('Your plan:'));
    await see(desktop.getByText(/You are receiving this email from/));
    await shot('preview-desktop');
    await page.getByRole('radio', { name: /Mobile/ }).check();
    const mobile = page.locator('iframe[title="Email as the contact (mobile)"]');
    await see(mobile);
    const width = await mobile.evaluate((el) => el.getBoundingClientRect().width);
    assert(Math.round(width) === 375, `the mobile preview is 375 px wide, got ${width}`);
    await shot('preview-mobile');

    const tester = 'preview-tester@example.net';
    await page.getByLabel('Send the test to').fill(tester);
    await page.getByRole('button', { name: 'Send test as contact' }).click();
    const sent = await see(page.getByRole('status').filter({ hasText: `Test sent to ${tester}.` }));
    const emailId = /Email id: (\S+)/.exec((await sent.textContent()) ?? '')?.[1];
    assert(emailId, 'the test answer names the email');
    const file = join(service.dataDir, 'outbox', `${emailId}.eml`);
    await until('the test lands in the outbox', async () => existsSync(file), 30_000);
    const eml = readFileSync(file, 'utf8');
    assert(/^Subject: \[Test\]/m.test(eml) && /^X-Test: true/im.test(eml), 'the copy is marked as a test');
    assert(/^To: .*preview-tester@example\.net/im.test(eml), 'the copy goes to the typed address');
    await shot('test-sent');
    const contacts = await page.request.get(`${baseUrl}/contacts?search=preview-tester`, { headers: { 'X-Project-Id': state.projectId! } });
    assert(((await contacts.json()) as { data: unknown[] }).data.length === 0, 'a test send creates no contact');

    await page.goto(projectUrl(`campaigns/${state.campaignId}`));
    await see(page.getByRole('heading', { name: 'Preview and test as a contact' }));
    await pickContact(page, as);
    await see(page.frameLocator('iframe[title="Email as the contact (desktop)"]').locator('body'));
    await shot('campaign-preview');
  },
};
