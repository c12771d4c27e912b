import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, type Journey, see, until } from '../harness';

/** A 1×1 PNG: what "Insert image" uploads. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082', 'hex');

/**
 * Import a CSV whose header says `First Name` through the mapping step (the key renamed, a column
 * skipped, a bad key refused before the upload), use the renamed key in a template's preview and
 * in the API's render as the contact, and insert an uploaded image at the editor's cursor.
 */
export const importMappingJourney: Journey = {
  name: 'import-mapping',
  async run({ page, baseUrl, projectUrl, shot, state }) {
    assert(state.fromAddress, 'needs the domains journey (fromAddress)');
    const dir = mkdtempSync(join(tmpdir(), 'mailroom-mapping-'));
    const csv = join(dir, 'people.csv');
    writeFileSync(csv, 'email,First Name,Notes\nmapped1@example.net,Ada,private\nmapped2@example.net,Grace,\n');
    const image = join(dir, 'pixel.png');
    writeFileSync(image, PNG);

    await page.goto(projectUrl('contacts/import'));
    await see(page.getByRole('heading', { name: 'Import contacts' }));
    await page.getByLabel('CSV file').setInputFiles(csv);
    const table = await see(page.getByRole('table', { name: 'Columns of the file and the keys they are stored under' }));
    const key = page.getByLabel('Key for column First Name');
    assert((await key.inputValue()) === 'firstName', `the suggested key has no space, got ${await key.inputValue()}`);
    await see(table.getByText('{{firstName}}'));
    // A key the server would refuse is named at its field, and nothing is sent.
    await key.fill('given.name');
    await see(table.getByText(/no dots/));
    assert(await page.getByRole('button', { name: 'Import' }).isDisabled(), 'Import waits for a valid key');
    await key.fill('givenName');
    await see(table.getByText('{{givenName}}'));
    // A new key shows the type its cells get; a key the project has shows the field's type.
    await see(table.getByRole('row', { name: /First Name/ }).getByText('text (from the file)'));
    await page.getByLabel('Skip column Notes').check();
    await shot('mapping');
    await page.getByRole('button', { name: 'Import' }).click();
    await see(page.getByRole('progressbar', { name: /Import finished/ }), 30_000);
    const res = await page.request.get(`${baseUrl}/contacts?search=mapped1@example.net`, { headers: { 'X-Project-Id': state.projectId! } });
    const stored = ((await res.json()) as { data: Array<{ data: Record<string, unknown> }> }).data[0]?.data;
    assert(JSON.stringify(stored) === JSON.stringify({ givenName: 'Ada' }), `stored under the renamed key, Notes skipped: ${JSON.stringify(stored)}`);
    await shot('imported');

    await page.goto(projectUrl('templates/new'));
    await see(page.getByRole('heading', { name: 'New template' }));
    const body = page.getByRole('textbox', { name: 'Body (HTML)' });
    await body.fill('<p>Hello {{givenName ?? "there"}}</p>\n');
    await page.getByLabel("Use a contact's data").fill('mapped1@example.net');
    await page.getByRole('button', { name: 'Load' }).click();
    const preview = page.frameLocator('iframe[title="Email preview"]');
    await see(preview.getByText('Hello Ada'));

    // The cursor sits at the end of the typed body: the image lands there, the text before it kept.
    await page.getByLabel('Image to insert').setInputFiles(image);
    await see(page.getByRole('status').filter({ hasText: 'Inserted pixel.png.' }));
    await until('the editor holds the image tag after the greeting', async () =>
      /^<p>Hello \{\{givenName \?\? "there"\}\}<\/p>\s*<img src="https?:\/\/[^"]+\/uploads\/img_[0-9a-f]{32}\.png" alt="">/.test((await body.textContent()) ?? ''),
    );
    await see(preview.locator('img[src*="/uploads/img_"]'));
    await shot('image-inserted');

    await page.getByLabel('Name', { exact: true }).fill('Imported names');
    await page.getByLabel('From address').fill(state.fromAddress);
    await page.getByRole('button', { name: 'Create template' }).click();
    await until('the editor URL names the template', async () => /\/templates\/[0-9a-f-]{36}$/.test(page.url()));
    // The API renders the renamed key for the imported contact too.
    await page.getByLabel('Find a contact').fill('mapped1@example.net');
    const select = page.getByLabel('As contact');
    await until('the picker offers the imported contact', async () => (await select.locator('option', { hasText: 'mapped1@example.net' }).count()) === 1);
    await select.selectOption({ label: 'mapped1@example.net' });
    await see(page.frameLocator('iframe[title="Email as the contact (desktop)"]').getByText('Hello Ada'));
    await shot('as-contact');
  },
};
