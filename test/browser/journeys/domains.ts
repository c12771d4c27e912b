import { type Journey, see } from '../harness';

/** Add a domain (after a refused name), see its DNS records with copy buttons, verify it now. */
export const domainsJourney: Journey = {
  name: 'domains',
  async run({ page, projectUrl, shot, state }) {
    state.domain = `mail${Date.now().toString(36)}.example.com`;
    state.fromAddress = `hello@${state.domain}`;
    await page.goto(projectUrl('domains'));
    await see(page.getByRole('heading', { name: 'No domains yet' }));
    await shot('empty');

    await page.getByLabel('Domain', { exact: true }).fill('not a domain!');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await see(page.locator('.field-error').filter({ hasText: /domain/i }));
    await shot('invalid-name');

    await page.getByLabel('Domain', { exact: true }).fill(state.domain);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const card = page.getByRole('region', { name: `Domain ${state.domain}` });
    await see(card);
    const records = card.getByRole('table', { name: `DNS records of ${state.domain}` });
    await see(records.getByRole('cell', { name: 'TXT' }));
    await see(records.getByText(/dkim/i));
    await card.getByRole('button', { name: /Copy .*record value/ }).first().click();
    await see(card.getByText('Copied'));
    await card.getByRole('button', { name: 'Verify now' }).click();
    await see(card.getByRole('status').filter({ hasText: 'Checked just now' }));
    // The test service runs with the outbox transport, where every domain counts as verified.
    await see(card.getByRole('heading').getByText('Verified'));
    await shot('records');
  },
};
