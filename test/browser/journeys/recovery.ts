import { assert, type Journey, see, until, waitForMail } from '../harness';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Email verification with the mailed token, a session that expires (back to the same page after
 * logging in), and a password reset through the mailed link.
 */
export const recoveryJourney: Journey = {
  name: 'recovery',
  async run({ page, context, goto, projectUrl, shot, state, service }) {
    assert(state.email && state.password && state.projectId, 'needs the account journey');
    const to = new RegExp(escapeRegExp(state.email), 'i');

    const verification = await waitForMail(service, [to, /Verify your email address/]);
    const verifyToken = /verify-email\?token=([^"\s<&]+)/.exec(verification)?.[1];
    assert(verifyToken, 'the verification mail carries a token');
    await goto(`/verify-email?token=${verifyToken}`);
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await see(page.getByRole('heading', { name: 'Address confirmed' }));
    await shot('email-verified');
    await page.goto(projectUrl());
    await see(page.getByRole('heading', { name: state.projectName!, exact: true }));
    assert((await page.getByText('Confirm your address').count()) === 0, 'the verification banner is gone');

    // The session ends (cookie gone): the next request goes to the login page, and back after it.
    await page.goto(projectUrl('domains'));
    await see(page.getByRole('heading', { name: 'Domains' }));
    await context.clearCookies();
    await page.getByRole('link', { name: 'Templates' }).click();
    await see(page.getByRole('heading', { name: 'Log in' }));
    await until('the login page remembers the templates page', async () => page.url().includes(encodeURIComponent(`/p/${state.projectId}/templates`)));
    await see(page.getByText('Log in to continue where you were.'));
    await shot('session-expired');
    await page.getByLabel('Email').fill(state.email);
    await page.getByLabel('Password').fill(state.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('heading', { name: 'Templates', exact: true }));
    assert(page.url().endsWith(`/app/p/${state.projectId}/templates`), `back on the templates page, not ${page.url()}`);

    // Forgotten password: the mailed link opens the reset form; the new password works.
    await page.getByRole('button', { name: 'Log out' }).click();
    await see(page.getByRole('heading', { name: 'Log in' }));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The login page has an Email field too: fill only once the (lazily loaded) reset page is up.
    await see(page.getByRole('heading', { name: 'Reset your password' }));
    await page.getByLabel('Email').fill(state.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await see(page.getByRole('heading', { name: 'Check your inbox' }));
    await shot('reset-requested');
    const reset = await waitForMail(service, [to, /Reset your password/]);
    const resetToken = /reset-password\?token=([^"\s<&]+)/.exec(reset)?.[1];
    assert(resetToken, 'the reset mail carries a token');
    await goto(`/reset-password?token=${resetToken}`);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await see(page.locator('.field-error').filter({ hasText: /password/i }));
    state.password = 'a brand new passphrase';
    await page.getByLabel('New password').fill(state.password);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await see(page.getByRole('heading', { name: 'Password changed' }));
    await shot('password-changed');
    await page.getByRole('link', { name: 'Log in with the new password' }).click();
    await page.getByLabel('Email').fill(state.email);
    await page.getByLabel('Password').fill(state.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('heading', { name: state.projectName!, exact: true }));
  },
};
