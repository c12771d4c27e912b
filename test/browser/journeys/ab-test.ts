import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, type Journey, see, until } from '../harness';

/**
 * An A/B campaign composed in the dashboard: variant B with its own subject, sender name and body
 * (the Delivery step), half the audience
 * tested, winner by clicks. A recipient of B clicks (the tracking redirect of the message in the
 * outbox); the campaign page shows the per-variant results during the wait, B is picked as the
 * winner by hand, and the rest of the audience gets B.
 */
export const abTestJourney: Journey = {
  name: 'ab-test',
  async run({ page, baseUrl, service, projectUrl, shot, state }) {
    const headers = { 'X-Project-Id': state.projectId!, 'X-Requested-With': 'XMLHttpRequest' };
    const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await page.request.fetch(`${baseUrl}${path}`, { method, headers, data: body });
      assert(res.ok(), `${method} ${path} answered ${res.status()}: ${await res.text()}`);
      return res.json();
    };
    for (let i = 0; i < 8; i += 1) await api('POST', '/contacts', { email: `ab-reader-${i}@example.org`, subscribed: true });

    await page.goto(projectUrl('campaigns/new'));
    await see(page.getByRole('heading', { name: 'New campaign' }));
    await page.getByLabel('Campaign name').fill('Subject test');
    await page.getByLabel('Subject', { exact: true }).fill('Spring plans A');
    await page.getByLabel('From address').fill(state.fromAddress!);
    const delivery = page.getByRole('group', { name: 'Delivery' });
    await delivery.getByLabel('A/B test the subject, sender name or body').check();
    await delivery.getByLabel('Subject B').fill('Spring plans B');
    await delivery.getByLabel('Sender name B').fill('Spring team');
    await delivery.getByLabel('A body of its own for B').check();
    await delivery.locator('.cm-content').click();
    await page.keyboard.insertText('<p>See <a href="https://example.com/spring-b">the B plans</a>.</p>');
    await delivery.getByLabel('Test share (%)').fill('50');
    await delivery.getByLabel('Winner by').selectOption('clicks');
    await delivery.getByLabel('Wait (minutes)').fill('30');
    await shot('compose-ab');
    // The body: the editor starts empty; a link to click.
    const editor = page.locator('.cm-content').first();
    await editor.click();
    await page.keyboard.insertText('<p>See <a href="https://example.com/spring">the plans</a>.</p>');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await see(page.getByRole('heading', { name: 'Subject test' }));
    const id = /\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    assert(id, `the campaign page opens (${page.url()})`);
    const saved = await api('GET', `/campaigns/${id}`);
    assert(saved.abTest?.testPercent === 50 && saved.abTest.metric === 'clicks' && saved.abTest.variants[0].subject === 'Spring plans B' && saved.abTest.variants[0].fromName === 'Spring team' && /the B plans/.test(saved.abTest.variants[0].body), `the A/B test is saved (${JSON.stringify(saved.abTest)})`);

    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send', exact: true }).click();
    await until('the test share is sent and the wait begins', async () => (await api('GET', `/campaigns/${id}/stats`)).abTest?.phase === 'waiting', 60_000);
    const emails: Array<{ id: string; subject: string }> = (await api('GET', `/v1/emails?campaignId=${id}&limit=100`)).data;
    const b = emails.find((e) => e.subject === 'Spring plans B');
    assert(b, `a test email carries subject B (${JSON.stringify(emails.map((e) => e.subject))})`);
    const eml = readFileSync(join(service.dataDir, 'outbox', `${b.id}.eml`), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    assert(eml.includes('the B plans') && /^From: "?Spring team"? </m.test(eml), 'variant B went out with its own body and sender name');
    const link = /https?:\/\/[^\s"'<>]+\/t\/c\/[A-Za-z0-9_.-]+/.exec(eml)?.[0];
    assert(link, 'the message carries a tracked link');
    const click = await page.request.get(`${baseUrl}${new URL(link).pathname}`, { maxRedirects: 0 });
    assert(click.status() === 302, `the tracked link redirects (${click.status()})`);

    const results = page.getByRole('region', { name: 'A/B test' });
    await see(results.getByText(/Waiting before picking the winner/), 30_000);
    await until('B shows its click', async () => !/\b0\.0%\s*$/.test((await results.getByRole('row', { name: 'Variant B' }).locator('td').nth(5).textContent()) ?? ''), 30_000);
    await shot('ab-waiting');
    await results.getByRole('button', { name: 'Pick B as winner' }).click();
    await until('the campaign is SENT', async () => (await api('GET', `/campaigns/${id}`)).status === 'SENT', 60_000);
    await see(results.getByRole('row', { name: 'Variant B' }).getByText('(winner)'), 30_000);
    await shot('ab-winner');
    const stats = await api('GET', `/campaigns/${id}/stats`);
    const [a, bStats] = stats.abTest.variants as Array<{ recipients: number }>;
    const all: Array<{ subject: string; status: string }> = (await api('GET', `/v1/emails?campaignId=${id}&limit=100`)).data;
    const written = all.filter((e) => e.status !== 'skipped');
    assert(stats.abTest.winner === 'B' && a.recipients + bStats.recipients === written.length, `every email is A or B, B the winner (${JSON.stringify(stats.abTest)})`);
    assert(written.filter((e) => e.subject === 'Spring plans A').length === a.recipients, 'only the test share got A; the rest got B');
  },
};
