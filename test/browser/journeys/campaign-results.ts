import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, type Journey, see, until } from '../harness';

/**
 * A sent campaign's results: a campaign with a link goes to the project's contacts, one recipient
 * clicks it (the tracking redirect of the message in the outbox), and the campaign page's
 * recipients table, filtered by "clicked", shows exactly that recipient; the links table counts the click.
 * Leaves `state.resultsCampaignId` (the every-page journey shoots its filtered page).
 */
export const campaignResultsJourney: Journey = {
  name: 'campaign-results',
  async run({ page, baseUrl, service, projectUrl, shot, state }) {
    const headers = { 'X-Project-Id': state.projectId!, 'X-Requested-With': 'XMLHttpRequest' };
    const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await page.request.fetch(`${baseUrl}${path}`, { method, headers, data: body });
      assert(res.ok(), `${method} ${path} answered ${res.status()}: ${await res.text()}`);
      return res.json();
    };
    // A subscribed contact of its own: the imported ones may all be unsubscribed.
    const reader = 'results-reader@example.org';
    await api('POST', '/contacts', { email: reader, subscribed: true });
    const created = await api('POST', '/campaigns', {
      name: 'Results check',
      subject: 'Our new plans',
      body: '<p>See <a href="https://example.com/plans">the plans</a>.</p>',
      from: state.fromAddress,
      audienceType: 'ALL',
    });
    const id: string = created.data.id;
    await api('POST', `/campaigns/${id}/send`, {});
    await until('the campaign is SENT', async () => (await api('GET', `/campaigns/${id}`)).status === 'SENT', 60_000);
    const sent = await api('GET', `/campaigns/${id}/recipients?status=sent&search=${encodeURIComponent(reader)}`);
    assert(sent.data.length === 1, `the campaign reached ${reader} (${JSON.stringify(await api('GET', `/campaigns/${id}/stats`))})`);
    const clicker: { emailId: string; email: string } = sent.data[0];
    const eml = readFileSync(join(service.dataDir, 'outbox', `${clicker.emailId}.eml`), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /https?:\/\/[^\s"'<>]+\/t\/c\/[A-Za-z0-9_.-]+/.exec(eml)?.[0];
    assert(link, 'the message carries a tracked link');
    const click = await page.request.get(`${baseUrl}${new URL(link).pathname}`, { maxRedirects: 0 });
    assert(click.status() === 302, `the tracked link redirects (${click.status()})`);

    await page.goto(projectUrl(`campaigns/${id}`));
    await see(page.getByRole('heading', { name: 'Recipients' }));
    await page.getByLabel('Status', { exact: true }).selectOption('clicked');
    const table = page.getByRole('region', { name: 'Recipients' }).getByRole('table');
    await see(table.getByRole('link', { name: clicker.email }));
    await until('only the recipient who clicked is listed', async () => (await table.locator('tbody tr').count()) === 1);
    await see(table.getByText('clicked', { exact: true }));
    assert(page.url().endsWith('?recipients=clicked'), `the filter is in the address (${page.url()})`);
    const links = page.getByRole('region', { name: 'Link clicks' }).getByRole('table');
    await see(links.getByRole('cell', { name: 'https://example.com/plans' }));
    await shot('recipients-clicked');
    // The search narrows by address; an unknown one shows the empty state.
    await page.getByLabel('Search by email').fill('nobody-here');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await see(page.getByRole('heading', { name: 'No recipient matches' }));
    // The row links to the contact page.
    await page.getByLabel('Search by email').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await table.getByRole('link', { name: clicker.email }).click();
    await until('the contact page opens', async () => /\/contacts\/[^/?]+$/.test(page.url()));
    await see(page.getByText(clicker.email).first());
    state.resultsCampaignId = id;
  },
};
