import { type Journey, see } from '../harness';

/** Add a domain (after a refused name), see its DNS records with copy buttons, verify it now, set up its warm-up (after a refused value). */
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

    // Warm-up: a refused value is shown at its field, then the schedule and today's count.
    const warmup = card.getByRole('region', { name: `Warm-up of ${state.domain}` });
    await see(warmup.getByRole('table', { name: `Warm-up schedule of ${state.domain} if it started today` }));
    await warmup.getByLabel('Warm up this domain').check();
    await warmup.getByLabel('Emails on day 0').fill('0');
    await warmup.getByRole('button', { name: 'Save warm-up' }).click();
    await see(warmup.locator('.field-error').filter({ hasText: /startPerDay/ }));
    await warmup.getByLabel('Emails on day 0').fill('10');
    await warmup.getByLabel('Daily growth (%)').fill('100');
    await warmup.getByLabel('Daily ceiling').fill('40');
    await warmup.getByRole('button', { name: 'Save warm-up' }).click();
    await see(warmup.getByRole('status').filter({ hasText: 'Day 0: 0 of 10 sent today.' }));
    const schedule = warmup.getByRole('table', { name: `Warm-up schedule of ${state.domain}` });
    await see(schedule.getByRole('row').nth(3).getByRole('cell', { name: '40', exact: true }));
    await shot('warmup');
    // Off again, so the journeys after this one send without a cap.
    await warmup.getByLabel('Warm up this domain').uncheck();
    await warmup.getByRole('button', { name: 'Save warm-up' }).click();
    await see(warmup.getByText('Off', { exact: true }));
  },
};
