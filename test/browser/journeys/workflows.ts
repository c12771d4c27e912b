import { assert, type Journey, see, until } from '../harness';

/**
 * Build a workflow in the graph editor (trigger event, a step, connected by dragging, another
 * connected with the Connect control), enable it, trigger it with POST /v1/track from this
 * process (public key shown once by a key rotation in settings; the web app never keeps it),
 * and see the execution run to its EXIT step, with its step history.
 */
export const workflowsJourney: Journey = {
  name: 'workflows',
  async run({ page, projectUrl, shot, state }) {
    const eventName = 'signed-up';
    await page.goto(projectUrl('workflows'));
    await see(page.getByRole('heading', { name: 'No workflows yet' }));
    await shot('list-empty');
    await page.getByLabel('Workflow name').fill('Welcome flow');
    await page.getByLabel('Trigger event').fill(eventName);
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await see(page.getByRole('heading', { name: 'Welcome flow' }));
    const nodes = page.locator('.react-flow__node');
    await until('the trigger node is drawn', async () => (await nodes.count()) === 1);

    // A SEND_EMAIL step with the template of the templates journey (its config is asked before it is added).
    const addForm = page.getByRole('form', { name: 'New step' });
    await page.getByLabel('Step type').selectOption('SEND_EMAIL');
    const templateSelect = addForm.getByLabel('Template', { exact: true });
    await until('templates are offered', async () => (await templateSelect.locator('option').count()) > 1);
    if (state.templateId) await templateSelect.selectOption(state.templateId);
    else await templateSelect.selectOption({ index: 1 });
    await addForm.getByRole('button', { name: 'Add step' }).click();
    await until('the new step is drawn', async () => (await nodes.count()) === 2);
    await see(page.getByRole('form', { name: 'Send email settings' }));

    // Drag from the trigger's output handle to the email step.
    const edges = page.locator('.react-flow__edge');
    const source = nodes.filter({ hasText: 'Trigger' }).locator('.react-flow__handle.source').first();
    const target = nodes.filter({ hasText: 'Send email' }).locator('.react-flow__handle.target').first();
    const a = (await source.boundingBox())!;
    const b = (await target.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 20, a.y + 40, { steps: 5 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
    await page.mouse.up();
    await until('the dragged connection is saved', async () => (await edges.count()) === 1, 15_000);
    await shot('graph-dragged');

    // An EXIT step, connected with the Connect control of the selected email step.
    await page.getByLabel('Step type').selectOption('EXIT');
    await addForm.getByLabel('Exit reason').fill('welcomed');
    await addForm.getByRole('button', { name: 'Add step' }).click();
    await until('the exit step is drawn', async () => (await nodes.count()) === 3);
    await nodes.filter({ hasText: 'Send email' }).click();
    const connect = page.getByRole('group', { name: 'Connect' });
    await see(connect);
    await connect.getByLabel('Next step').selectOption({ index: 0 });
    await connect.getByRole('button', { name: 'Connect' }).click();
    await until('the second connection is saved', async () => (await edges.count()) === 2, 15_000);
    await shot('graph');

    // Move the exit step: the dropped position is saved and drawn again after a reload.
    const exitNode = nodes.filter({ hasText: 'welcomed' });
    const box = (await exitNode.boundingBox())!;
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/steps/'));
    await page.mouse.move(box.x + 30, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 130, box.y + 12, { steps: 5 });
    await page.mouse.move(box.x + 230, box.y + 12, { steps: 5 });
    await page.mouse.up();
    assert((await saved).ok(), 'the new position is saved');
    const moved = await exitNode.evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform);
    await page.reload();
    await until('the graph is drawn again', async () => (await nodes.count()) === 3 && (await edges.count()) === 2);
    assert((await exitNode.evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform)) === moved, 'the moved step stays where it was dropped');

    await page.getByRole('button', { name: 'Enable' }).click();
    await see(page.getByRole('button', { name: 'Disable' }));
    await see(page.locator('.badge').filter({ hasText: /^enabled$/ }));

    // The public key, shown once by a rotation; used here by the test process only.
    const workflowUrl = page.url();
    await page.goto(projectUrl('settings'));
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate now' }).click();
    const publicKey = (await (await see(page.getByLabel('Public key', { exact: true }))).textContent())?.trim();
    assert(publicKey?.startsWith('pk_'), 'the public key is shown once');
    const email = state.importedEmails?.[2] ?? 'person3@example.org';
    const response = await fetch(new URL('/v1/track', page.url()), {
      method: 'POST',
      headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: eventName, email, data: { plan: 'pro' } }),
    });
    assert(response.status === 200, `POST /v1/track answers 200 (${response.status}: ${await response.text()})`);

    await page.goto(workflowUrl);
    await page.getByRole('link', { name: 'Executions' }).click();
    const rows = page.getByRole('table', { name: 'Executions' }).getByRole('row');
    // Listed as soon as the event started it, then run to its EXIT step by the engine (the list is
    // read again until then: whether the mail was sent or skipped, the execution ends EXITED).
    await until('the execution is listed', async () => (await rows.count()) === 2, 30_000);
    await until(
      'the execution has exited',
      async () => {
        if ((await rows.nth(1).locator('.badge').filter({ hasText: /^exited$/ }).count()) === 1) return true;
        await page.reload();
        await page.getByRole('table', { name: 'Executions' }).waitFor();
        return false;
      },
      30_000,
    );
    await shot('executions');
    await rows.nth(1).getByRole('link').first().click();
    const history = page.getByRole('table', { name: 'Step history' });
    await see(history);
    await see(page.getByRole('heading', { name: 'Execution of Welcome flow' }));
    // Trigger, Send email (sent or skipped) and Exit: one row each, plus the header row.
    await until('the step history shows three steps', async () => (await history.getByRole('row').count()) === 4, 10_000);
    await shot('execution');

    // The tracked event and the campaign's mail, in activity and analytics; the limits in billing.
    await page.goto(projectUrl('activity'));
    await see(page.getByRole('table', { name: 'Activity' }).getByText(eventName).first(), 20_000);
    await page.getByLabel('Type').selectOption('event');
    await see(page.getByRole('table', { name: 'Activity' }).getByText(email).first());
    await shot('activity');
    await page.goto(projectUrl('analytics'));
    await see(page.locator('.recharts-surface').first(), 20_000);
    await see(page.getByRole('region', { name: 'Top events' }).locator('.recharts-surface'));
    await shot('analytics');
    await page.goto(projectUrl('billing'));
    await page.getByLabel('Campaign emails: limit').fill('many');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await see(page.locator('.field-error, .error-message').first());
    await page.getByLabel('Campaign emails: limit').fill('5000');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    await see(page.getByRole('progressbar', { name: /Campaign emails used/ }));
    await shot('billing');
  },
};
