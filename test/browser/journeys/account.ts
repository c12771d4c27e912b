import { type Journey, see, until } from '../harness';

/** Sign up, land on project creation, create a project and see its keys once, log out and back in. */
export const accountJourney: Journey = {
  name: 'account',
  async run({ page, goto, shot, state }) {
    state.email = `owner-${Date.now()}@example.com`;
    state.password = 'correct horse battery';
    state.projectName = 'Browser journey';

    // A protected page while signed out goes to the login page, remembering where it was.
    await goto('/projects/new');
    await see(page.getByRole('heading', { name: 'Log in' }));
    await until('login URL keeps next', async () => page.url().includes('next=%2Fprojects%2Fnew'));
    await shot('login');

    await page.getByRole('link', { name: 'Sign up' }).click();
    await see(page.getByRole('heading', { name: 'Create your account' }));
    // The API's 422 for a short password shows at the password field.
    await page.getByLabel('Email').fill(state.email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.locator('.field-error').filter({ hasText: /password/i }));
    await shot('signup-error');
    await page.getByLabel('Password').fill(state.password);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await see(page.getByRole('heading', { name: 'Create a project' }));
    await shot('new-project');
    await page.getByLabel('Project name').fill(state.projectName);
    await page.getByRole('button', { name: 'Create project' }).click();
    await see(page.getByRole('heading', { name: `${state.projectName} is ready` }));
    const secret = await page.getByLabel('Secret key', { exact: true }).textContent();
    if (!secret?.startsWith('sk_')) throw new Error(`expected the secret key, got ${secret}`);
    await page.getByRole('button', { name: 'Copy secret key' }).click();
    await see(page.getByText('Copied'));
    await shot('keys-once');
    await page.getByRole('link', { name: /open the project/ }).click();
    await see(page.getByRole('heading', { name: state.projectName, exact: true }));
    await until('the project page opened', async () => /\/app\/p\/[0-9a-f-]{36}$/.test(page.url()));
    state.projectId = /\/app\/p\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    await shot('overview');

    // The key is never kept by the dashboard: not in storage.
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })');
    if (stored.includes(secret)) throw new Error('the secret key was stored by the browser');

    await page.getByRole('button', { name: 'Log out' }).click();
    await see(page.getByRole('heading', { name: 'Log in' }));
    // A wrong password is an error at the form, not a redirect loop.
    await page.getByLabel('Email').fill(state.email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('alert').filter({ hasText: /password|credentials|invalid/i }));
    await page.getByLabel('Password').fill(state.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('heading', { name: state.projectName, exact: true }));
  },
};
