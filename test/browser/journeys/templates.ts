import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assert, type Journey, see, until } from '../harness';

/** Create a template in the editor: a Liquid error with its line, the live preview, save, send a test. */
export const templatesJourney: Journey = {
  name: 'templates',
  async run({ page, projectUrl, shot, state, service }) {
    assert(state.fromAddress, 'needs the domains journey (fromAddress)');
    state.templateName = 'Welcome email';
    await page.goto(projectUrl('templates'));
    await see(page.getByRole('heading', { name: 'No templates yet' }));
    await shot('empty');
    await page.getByRole('link', { name: 'New template' }).first().click();
    await see(page.getByRole('heading', { name: 'New template' }));

    const body = page.getByRole('textbox', { name: 'Body (HTML)' });
    await body.fill('<h1>Hello {{firstName}}</h1>\n{% if plan %}\n<p>Plan: {{plan}}</p>');
    const problem = await see(page.getByRole('alert', { name: 'Template error' }));
    const text = (await problem.textContent()) ?? '';
    assert(/Line 2 of the body/.test(text), `expected the error's line, got: ${text}`);
    // The editor marks that line too.
    await see(page.locator('.cm-gutter-lint .cm-lint-marker-error'));
    const marked = await page.locator('.cm-lintRange-error').first().textContent();
    assert(marked?.includes('{% if plan %}'), `the marked line is line 2, got: ${marked}`);
    await shot('liquid-error');

    await body.fill('<h1>Hello {{firstName ?? "there"}}</h1>\n<p>Your plan: {{plan ?? "free"}}</p>');
    const preview = page.frameLocator('iframe[title="Email preview"]');
    await see(preview.getByRole('heading', { name: 'Hello Ada' }));
    await page.getByLabel('Sample data (JSON)').fill('{"firstName": "Grace", "plan": "pro"}');
    await see(preview.getByText('Your plan: pro'));

    // Saving without a name: the API's answer shows at the Name field.
    await page.getByLabel('From address').fill(state.fromAddress);
    await page.getByLabel('Subject', { exact: true }).fill('Welcome, {{firstName ?? "friend"}}');
    await page.getByRole('button', { name: 'Create template' }).click();
    await see(page.locator('.field-error').filter({ hasText: /name/i }));
    await shot('missing-name');

    await page.getByLabel('Name', { exact: true }).fill(state.templateName);
    await page.getByRole('button', { name: 'Create template' }).dblclick();
    await until('the editor URL names the template', async () => /\/templates\/[0-9a-f-]{36}$/.test(page.url()));
    state.templateId = /\/templates\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    await see(page.getByRole('heading', { name: state.templateName }));
    await shot('saved');

    await page.getByLabel('Send the test to').fill(state.email ?? 'tester@example.com');
    await page.getByRole('button', { name: 'Send test' }).click();
    const sent = await see(page.getByRole('status').filter({ hasText: 'Test sent' }));
    const emailId = /Email id: (\S+)/.exec((await sent.textContent()) ?? '')?.[1];
    assert(emailId, 'the test answer names the email');
    await until('the test lands in the outbox', async () => existsSync(join(service.dataDir, 'outbox', `${emailId}.eml`)), 30_000);
    await shot('test-sent');

    // A double-clicked create made one template, not two.
    await page.goto(projectUrl('templates'));
    await see(page.getByRole('link', { name: state.templateName }));
    const rows = await page.getByRole('link', { name: state.templateName }).count();
    assert(rows === 1, `expected one "${state.templateName}", found ${rows}`);
    await shot('list');
  },
};
