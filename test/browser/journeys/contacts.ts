import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, focused, hasFocusWithin, type Journey, see, until } from '../harness';

/** Import a CSV (progress, row errors), then search, filter, open, edit (typed fields) and bulk-change contacts, and choose list columns. */
export const contactsJourney: Journey = {
  name: 'contacts',
  async run({ page, projectUrl, shot, state }) {
    const emails = Array.from({ length: 12 }, (_, i) => `person${i + 1}@example.org`);
    state.importedEmails = emails;
    const rows = emails.map((email, i) => `${email},Person ${i + 1},${i % 2 ? 'pro' : 'free'},${10 + i}`);
    const csv = ['email,First Name,plan,score', ...rows.slice(0, 2), 'not-an-email,Broken,free,1', ...rows.slice(2), `${emails[0]},Again,pro,99`].join('\n');
    const file = join(mkdtempSync(join(tmpdir(), 'mailroom-csv-')), 'contacts.csv');
    writeFileSync(file, csv);

    // Earlier journeys may have made contacts (a test send adds its recipient): count from here.
    await page.goto(projectUrl('contacts'));
    await see(page.getByRole('heading', { name: 'No contacts yet' }).or(page.getByText(/\d+ in this project/)));
    const before = (await page.getByRole('heading', { name: 'No contacts yet' }).count()) ? 0 : Number(/([\d,]+) in this project/.exec((await page.locator('.page-description').textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
    assert(Number.isInteger(before), 'the contact count is shown');
    await shot('before-import');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await see(page.getByRole('heading', { name: 'Import contacts' }));
    await page.getByLabel('CSV file').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    await see(page.getByRole('progressbar', { name: /Import finished/ }), 30_000);
    const counts = page.getByRole('definition');
    await see(counts.filter({ hasText: 'completed' }));
    const errors = page.getByRole('table', { name: 'Rows with problems' });
    await see(errors.getByRole('row').filter({ hasText: 'not-an-email' }).filter({ hasText: 'The email address is not valid' }));
    await see(errors.getByRole('row').filter({ hasText: emails[0] }).filter({ hasText: 'appears earlier' }));
    await shot('import-done');

    await page.getByRole('link', { name: 'See the contacts' }).click();
    await see(page.getByText(`${before + emails.length} in this project`));
    await shot('list');

    await page.getByLabel('Search by email or text field').fill('person1');
    await see(page.getByText('4 matching'));
    await page.getByLabel('Sort').selectOption('email:asc');
    // 'person10@' sorts before 'person1@' ('0' < '@').
    await see(page.getByRole('row').nth(1).getByRole('link', { name: 'person10@example.org' }));
    await page.getByLabel('Sort').selectOption('email:desc');
    await see(page.getByRole('row').nth(1).getByRole('link', { name: 'person1@example.org' }));
    await page.getByLabel('Search by email or text field').fill('');

    await page.getByRole('link', { name: 'person2@example.org' }).click();
    await see(page.getByRole('heading', { name: 'person2@example.org' }));
    // The mapping step suggests keys without spaces: `First Name` is stored as `firstName`.
    // Custom data as typed fields: the imported text and number, edited, one added, one removed.
    const field = (name: string) => page.getByLabel(new RegExp(`^${name} \\(`));
    assert((await field('firstName').inputValue()) === 'Person 2', 'the imported text field');
    assert((await field('score').getAttribute('type')) === 'number' && (await field('score').inputValue()) === '11', 'the imported number field is a number input');
    await field('firstName').fill('Person Two');
    await field('score').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.locator('.data-field.field-invalid').filter({ hasText: 'Enter a number.' }));
    await field('score').fill('12.5');
    await page.getByLabel('New field name').fill('plan');
    await page.getByRole('button', { name: 'Add field' }).click();
    await see(page.getByText('This contact already has that field.'));
    await page.getByLabel('New field name').fill('company');
    await page.getByLabel('New field name').press('Enter');
    await see(field('company'));
    assert(await hasFocusWithin(field('company')), `the new field has the focus (it is on ${await focused(page)})`);
    await page.keyboard.type('Analytical Engines');
    await page.getByLabel('New field name').fill('renewal');
    await page.getByLabel('New field type').selectOption('date');
    await page.getByRole('button', { name: 'Add field' }).click();
    await field('renewal').fill('2027-01-31');
    await page.getByRole('button', { name: 'Remove plan' }).click();
    await page.getByLabel('Subscribed to marketing email').uncheck();
    await shot('detail-typed-fields');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    await see(page.getByRole('list', { name: 'Timeline, newest first' }).getByText('Unsubscribed from marketing email'));
    await page.reload();
    await see(field('company'));
    assert((await field('company').inputValue()) === 'Analytical Engines' && (await field('score').inputValue()) === '12.5', 'saved values');
    assert((await field('renewal').getAttribute('type')) === 'date' && (await field('renewal').inputValue()) === '2027-01-31', 'the new date field');
    assert((await field('plan').count()) === 0 && (await field('firstName').inputValue()) === 'Person Two', 'removed and edited fields');
    // An address another contact has: the 409 shows at the email field.
    await page.getByLabel('Email', { exact: true }).fill('person3@example.org');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.locator('.field-error').filter({ hasText: /person3@example.org|already|exists/i }));
    await shot('detail');

    // Search by a text field's value, and show fields as columns (remembered for the project).
    await page.goto(projectUrl('contacts'));
    await page.getByLabel('Search by email or text field').fill('analytical');
    await see(page.getByText('1 matching'));
    await see(page.getByRole('link', { name: 'person2@example.org' }));
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('group', { name: 'Custom field columns' }).getByLabel('company').check();
    await page.getByRole('group', { name: 'Custom field columns' }).getByLabel('renewal').check();
    const table = page.getByRole('table', { name: 'Contacts' });
    await see(table.getByRole('columnheader', { name: 'company' }));
    await see(table.getByRole('cell', { name: 'Analytical Engines' }));
    await see(table.getByRole('cell', { name: /Jan 31, 2027/ }));
    await shot('list-columns');
    await page.reload();
    await see(page.getByRole('table', { name: 'Contacts' }).getByRole('columnheader', { name: 'renewal' }));
    await page.getByText(/^Columns/).click();
    await page.getByRole('group', { name: 'Custom field columns' }).getByLabel('company').uncheck();
    await page.getByRole('group', { name: 'Custom field columns' }).getByLabel('renewal').uncheck();
    await page.getByText(/^Columns/).click();

    // The imported contacts only (they are @example.org), from here on.
    await page.goto(projectUrl('contacts'));
    await page.getByLabel('Search by email or text field').fill('@example.org');
    await see(page.getByText(`${emails.length} matching`));
    await page.getByLabel('Subscription').selectOption('false');
    await see(page.getByText('1 matching'));
    await page.getByLabel('Subscription').selectOption('');
    await see(page.getByText(`${emails.length} matching`));
    await page.getByLabel('Select all shown contacts').check();
    await see(page.getByText(`${emails.length} selected`));
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Unsubscribe' }).click();
    await see(page.getByRole('status').filter({ hasText: /Done: 11 unsubscribed/ }), 30_000);
    await shot('bulk-unsubscribed');
    await page.getByLabel('Subscription').selectOption('true');
    await see(page.getByRole('heading', { name: 'No contact matches' }));

    await page.getByLabel('Subscription').selectOption('');
    await page.getByLabel(`Select ${emails[11]}`).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete contacts' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Done: 1 deleted' }), 30_000);
    await see(page.getByText(`${emails.length - 1} matching`));
    await shot('bulk-deleted');

    // One contact deleted from its own page.
    await page.getByRole('link', { name: emails[10] }).click();
    await see(page.getByRole('heading', { name: emails[10] }));
    await page.getByRole('button', { name: 'Delete contact' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await see(page.getByRole('heading', { name: 'Contacts', exact: true }));
    await page.getByLabel('Search by email or text field').fill(emails[10]);
    await see(page.getByRole('heading', { name: 'No contact matches' }));

    // A contact added with typed fields (then deleted: later journeys count the contacts).
    await page.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a contact' });
    await dialog.getByLabel('Email', { exact: true }).fill('typed@example.net');
    await dialog.getByLabel('New field name').fill('company');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await dialog.getByLabel(/^company \(/).fill('Typed Fields Inc');
    await dialog.getByLabel('New field name').fill('seats');
    await dialog.getByLabel('New field type').selectOption('number');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await dialog.getByLabel(/^seats \(/).fill('7');
    await shot('add-contact-typed');
    await dialog.getByRole('button', { name: 'Save contact' }).click();
    await until('the dialog closes once saved', async () => (await dialog.count()) === 0);
    await page.getByLabel('Search by email or text field').fill('typed fields');
    await see(page.getByText('1 matching'));
    await page.getByRole('link', { name: 'typed@example.net' }).click();
    assert((await page.getByLabel(/^seats \(/).getAttribute('type')) === 'number' && (await page.getByLabel(/^seats \(/).inputValue()) === '7', 'the added number field');
    await page.getByRole('button', { name: 'Delete contact' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await see(page.getByRole('heading', { name: 'Contacts', exact: true }));
  },
};
