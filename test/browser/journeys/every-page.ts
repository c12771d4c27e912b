import type { Page } from 'playwright-core';
import { assert, focused, hasFocusWithin, type Journey, see } from '../harness';

type Listed = { id: string }[] | { data: { id: string }[] };
const firstId = (body: Listed): string | undefined => (Array.isArray(body) ? body : body.data)[0]?.id;

/** The id of the first resource a project API path lists (as the signed-in user, through the session cookie). */
async function firstOf(page: Page, baseUrl: string, projectId: string, path: string): Promise<string | undefined> {
  const res = await page.request.get(`${baseUrl}${path}`, { headers: { 'X-Project-Id': projectId } });
  assert(res.ok(), `GET ${path} answered ${res.status()}`);
  return firstId((await res.json()) as Listed);
}

/**
 * Every route of the router, with the data the earlier journeys left, one after the other: each
 * is shot, so each passes axe-core's checks (run.ts fails the journey on a serious or critical
 * violation). The signed-out pages (login, sign-up, password reset, email verification) are
 * shot by the account and recovery journeys, a webhook endpoint's and a delivery's pages by the
 * webhooks journey (which deletes its endpoint at its end). Ends with an editor by keyboard and
 * its unsaved-changes prompt.
 */
export const everyPageJourney: Journey = {
  name: 'every-page',
  async run({ page, baseUrl, projectUrl, shot, state }) {
    const projectId = state.projectId!;
    const contactId = await firstOf(page, baseUrl, projectId, '/contacts?limit=1');
    const workflowId = await firstOf(page, baseUrl, projectId, '/workflows');
    const executionId = workflowId && (await firstOf(page, baseUrl, projectId, `/workflows/${workflowId}/executions`));
    const ids = { contactId, workflowId, executionId, templateId: state.templateId, segmentId: state.segmentId, campaignId: state.campaignId, resultsCampaignId: state.resultsCampaignId };
    const missing = Object.entries(ids).filter(([, id]) => !id);
    assert(missing.length === 0, `the earlier journeys left no ${missing.map(([name]) => name).join(', ')}`);

    const routes: [string, string][] = [
      ['overview', ''],
      ['contacts', 'contacts'],
      ['contact', `contacts/${contactId}`],
      ['contacts-import', 'contacts/import'],
      ['templates', 'templates'],
      ['template', `templates/${state.templateId}`],
      ['template-new', 'templates/new'],
      ['segments', 'segments'],
      ['segment', `segments/${state.segmentId}`],
      ['segment-edit', `segments/${state.segmentId}/edit`],
      ['segment-new', 'segments/new'],
      ['campaigns', 'campaigns'],
      ['campaign', `campaigns/${state.campaignId}`],
      ['campaign-edit', `campaigns/${state.campaignId}/edit`],
      ['campaign-new', 'campaigns/new'],
      // A sent campaign's results, its recipients filtered (the campaign-results journey sent it and clicked a link).
      ['campaign-recipients-clicked', `campaigns/${state.resultsCampaignId as string}?recipients=clicked`],
      ['workflows', 'workflows'],
      ['workflow', `workflows/${workflowId}`],
      ['workflow-executions', `workflows/${workflowId}/executions`],
      ['workflow-execution', `workflows/${workflowId}/executions/${executionId}`],
      ['activity', 'activity'],
      ['analytics', 'analytics'],
      ['domains', 'domains'],
      ['webhooks', 'webhooks'],
      // An endpoint's page and a delivery's: the webhooks journey shoots them before it deletes its endpoint.
      ['webhook-new', 'webhooks/new'],
      ['billing', 'billing'],
      ['settings', 'settings'],
      ['settings-keys', 'settings/keys'],
      ['settings-members', 'settings/members'],
      ['settings-security', 'settings/security'],
      ['settings-erasures', 'settings/erasures'],
      ['not-found', 'no-such-page'],
    ];
    for (const [name, path] of routes) {
      await page.goto(projectUrl(path));
      await see(page.getByRole('heading', { level: 1 }));
      await shot(name);
    }
    await page.goto(`${baseUrl}/app/`);
    await see(page.getByRole('heading', { level: 1 }));
    await shot('projects');

    // An editor with unsaved changes asks before leaving; Escape keeps editing, Discard leaves.
    await page.goto(projectUrl('templates/new'));
    await page.getByLabel('Name', { exact: true }).fill('Never saved');
    // The body editor is no keyboard trap: Tab moves on.
    const body = page.getByRole('textbox', { name: /^Body/ });
    await body.click();
    await page.keyboard.press('Tab');
    assert(!(await hasFocusWithin(page.locator('.cm-editor').first())), `Tab leaves the body editor (the focus is on ${await focused(page)})`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
    const prompt = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await see(prompt);
    await shot('unsaved-changes');
    await page.keyboard.press('Escape');
    await see(page.getByRole('heading', { name: 'New template' }));
    assert((await prompt.count()) === 0 && page.url().endsWith('/templates/new'), 'Escape keeps the editor open');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
    await prompt.getByRole('button', { name: 'Discard changes' }).click();
    await see(page.getByRole('heading', { name: 'Contacts', level: 1 }));
  },
};
