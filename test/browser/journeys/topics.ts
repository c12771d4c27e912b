import { assert, type Journey, see } from '../harness';

const totalOf = async (text: string | null) => Number(/([\d,]+) matching/.exec(text ?? '')?.[1]?.replace(/,/g, ''));

/**
 * Topics in the dashboard: create one (its slug derived from the name), be refused a duplicate,
 * then have an imported contact leave it on the contact page and see the contacts list's topic
 * filter count one member fewer.
 */
export const topicsJourney: Journey = {
  name: 'topics',
  async run({ page, projectUrl, shot }) {
    await page.goto(projectUrl('topics'));
    await see(page.getByRole('heading', { name: 'No topics yet' }));
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create topic' }) });
    await form.getByLabel('Name', { exact: true }).fill('Product news');
    await form.getByRole('button', { name: 'Create topic' }).click();
    const table = page.getByRole('table', { name: 'Topics' });
    await see(table.getByRole('cell', { name: 'product-news' }));
    await form.getByLabel('Name', { exact: true }).fill('Product News');
    await form.getByRole('button', { name: 'Create topic' }).click();
    await see(page.getByText(/slug "product-news"/));
    await shot('list');

    // Every contact is a member of an opt-out topic until it leaves.
    await page.goto(projectUrl('contacts'));
    await page.getByLabel('Topic').selectOption({ label: 'Members of Product news' });
    const header = page.locator('.page-header');
    await see(header.getByText(/matching/));
    const before = await totalOf(await header.textContent());
    assert(before > 0, `the imported contacts are members (${before})`);
    await page.getByRole('table').getByRole('link').first().click();
    const consent = page.getByRole('region', { name: 'Topics and snooze' });
    await see(consent.getByText('Member', { exact: true }));
    await consent.getByLabel(/Product news/).selectOption({ label: 'Left' });
    await consent.getByRole('button', { name: 'Save topics and snooze' }).click();
    await see(consent.getByText('Not a member'));
    await shot('contact-left-topic');

    await page.goto(projectUrl('contacts?topic=product-news'));
    await see(header.getByText(`${(before - 1).toLocaleString()} matching`));
  },
};
