import { assert, type Journey, see, until } from '../harness';

/** Rename the project, set a retention period, rotate its keys (shown once), try to add a member without an account, see security. */
export const settingsJourney: Journey = {
  name: 'settings',
  async run({ page, projectUrl, shot, state, baseUrl }) {
    await page.goto(projectUrl('settings'));
    await see(page.getByLabel('Project name'));
    await page.getByLabel('Project name').fill('Browser journey (renamed)');
    await page.getByLabel('Open and click tracking').selectOption('MARKETING_ONLY');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    await see(page.getByRole('button', { name: /Project: Browser journey \(renamed\)/ }));
    state.projectName = 'Browser journey (renamed)';
    await shot('general');
    // Retention: a period saved, and what the project holds listed.
    const retention = page.getByRole('region', { name: 'Data retention' });
    await retention.getByLabel('Events (days)').fill('365');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await see(retention.getByRole('status').filter({ hasText: 'Saved.' }));
    await see(retention.getByRole('rowheader', { name: 'Email records' }));
    await shot('retention');

    await page.getByRole('link', { name: 'API keys' }).click();
    const before = await (await see(page.locator('.dl-grid code').first())).textContent();
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate now' }).click();
    const secret = await (await see(page.getByLabel('Secret key', { exact: true }))).textContent();
    assert(secret?.startsWith('sk_') && !secret.startsWith(before!.replace('…', '')), 'a new secret key is shown');
    await shot('keys-rotated');

    await page.getByRole('link', { name: 'Members' }).click();
    await see(page.getByRole('cell', { name: new RegExp(state.email!) }));
    await page.getByLabel("Member's email").fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await see(page.locator('.field-error').filter({ hasText: /sign up first/ }));
    // A colleague with an account: added as a member, made admin, removed.
    const colleague = `colleague-${Date.now()}@example.com`;
    const signup = await fetch(`${baseUrl}/auth/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: colleague, password: 'correct horse battery' }) });
    assert(signup.status === 201, `colleague sign-up: ${signup.status}`);
    await page.getByLabel("Member's email").fill(colleague);
    await page.getByRole('button', { name: 'Add member' }).click();
    const role = await see(page.getByLabel(`Role of ${colleague}`));
    await role.selectOption('ADMIN');
    await see(page.getByRole('row').filter({ hasText: colleague }).getByText(/Everything: settings, keys, members, billing/));
    await shot('members');
    await page.getByRole('row').filter({ hasText: colleague }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
    await until('the colleague is gone', async () => (await page.getByRole('row').filter({ hasText: colleague }).count()) === 0);

    await page.getByRole('link', { name: 'Security' }).click();
    await see(page.getByRole('heading', { name: 'Bounce rate' }));
    await see(page.getByRole('heading', { name: 'Never suspended' }));
    await shot('security');

    // The project switcher lists the projects and opens the creation form.
    await page.getByRole('button', { name: /Project: / }).click();
    await see(page.getByRole('menuitem', { name: /Browser journey \(renamed\)/ }));
    await page.getByRole('menuitem', { name: 'New project…' }).click();
    await see(page.getByRole('heading', { name: 'Create a project' }));
    await shot('switcher-new-project');
    await page.goto(projectUrl());
  },
};
