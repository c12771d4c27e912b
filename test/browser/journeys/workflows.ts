import type { Locator } from 'playwright-core';
import { assert, type Journey, see, until } from '../harness';

/**
 * "A workflow built without touching a raw id": build it in the graph editor from lists (each
 * step added after the previous one, connected with an arrowhead and drawn below it in view; an
 * EXIT added on its own and connected by dragging; the next-step picker offers no loop; a node
 * selected with the keyboard), enable it, trigger it with POST /v1/track from this process
 * (public key shown once by a key rotation in settings; the web app never keeps it), and see
 * the execution as a person: the contact's email, waiting at the delay until a time with its
 * zone, a timeline of its steps, and the count at the delay node.
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

    // "A workflow built without touching a raw id": every step is picked from lists. A Send email
    // step after the trigger (the "After" picker offers the trigger, the only step): it is added
    // connected, with an arrowhead, and drawn below the trigger inside the canvas.
    const addForm = page.getByRole('form', { name: 'New step' });
    const after = page.getByLabel('After', { exact: true });
    const edges = page.locator('.react-flow__edge');
    const canvas = page.getByRole('region', { name: 'Workflow graph' });
    await page.getByLabel('Step type').selectOption('SEND_EMAIL');
    assert(/^Trigger: when signed-up happens$/.test((await after.locator('option:checked').textContent()) ?? ''), 'the new step goes after the trigger by default');
    const templateSelect = addForm.getByLabel('Template', { exact: true });
    await until('templates are offered', async () => (await templateSelect.locator('option').count()) > 1);
    const templateOption = state.templateName ? templateSelect.locator('option', { hasText: state.templateName }).first() : templateSelect.locator('option').nth(1);
    await templateSelect.selectOption({ label: (await templateOption.textContent())!.trim() });
    await addForm.getByRole('button', { name: 'Add step' }).click();
    await until('the new step is drawn, connected', async () => (await nodes.count()) === 2 && (await edges.count()) === 1, 15_000);
    await see(page.getByRole('form', { name: 'Send email settings' }));
    assert((await edges.first().locator('path[marker-end]').count()) === 1, 'the arrow has an arrowhead');
    const inCanvas = async (node: Locator) => {
      const n = (await node.boundingBox())!;
      const c = (await canvas.boundingBox())!;
      return n.y >= c.y && n.y + n.height <= c.y + c.height && n.x >= c.x && n.x + n.width <= c.x + c.width;
    };
    const trigger = nodes.filter({ hasText: 'Trigger' });
    const sendNode = nodes.filter({ hasText: 'Send email' });
    await until('the new step is in view, below the trigger', async () => (await inCanvas(sendNode)) && (await sendNode.boundingBox())!.y > (await trigger.boundingBox())!.y);

    // A Delay after the Send email step (the new step is selected, so it is the default "After").
    await page.getByLabel('Step type').selectOption('DELAY');
    assert(((await after.locator('option:checked').textContent()) ?? '').startsWith('Send email'), 'the next step goes after the step just added');
    await addForm.getByLabel('Wait for').fill('2');
    await addForm.getByLabel('Unit').selectOption('hours');
    await addForm.getByRole('button', { name: 'Add step' }).click();
    await until('the delay is drawn, connected', async () => (await nodes.count()) === 3 && (await edges.count()) === 2, 15_000);
    const delayNode = nodes.filter({ hasText: '2 hours' });
    await until('the delay is in view', () => inCanvas(delayNode));
    // The delay is selected: its "Next step" picker offers nothing, as every other step (the
    // trigger, the email step) leads to it and would close a loop.
    await see(page.getByRole('region', { name: 'Selected step' }).getByText('Every other step leads here already'));
    assert((await page.getByLabel('Next step').count()) === 0, 'no next step is offered that would close a loop');

    // An EXIT step added on its own, then connected by dragging from the delay's output.
    await page.getByLabel('Step type').selectOption('EXIT');
    await after.selectOption({ label: 'Not connected' });
    await addForm.getByLabel('Exit reason').fill('welcomed');
    await addForm.getByRole('button', { name: 'Add step' }).click();
    await until('the exit step is drawn, unconnected', async () => (await nodes.count()) === 4, 15_000);
    assert((await edges.count()) === 2, 'a step added "Not connected" has no arrow');
    // Now the delay's picker offers the exit step only.
    await page.getByLabel('Step to edit').selectOption({ label: 'Delay: 2 hours' });
    const choices = await page.getByRole('group', { name: 'Connect' }).getByLabel('Next step').locator('option').allTextContents();
    assert(choices.length === 1 && choices[0].startsWith('Exit'), `the next-step picker offers only the exit step (${choices.join(' | ')})`);
    await page.getByLabel('Step to edit').selectOption({ label: 'Exit: welcomed' });
    await page.evaluate('window.scrollTo(0, 0)');

    // The view pans to a new step (300 ms): drag once it stands still.
    const exitBox = async () => JSON.stringify(await nodes.filter({ hasText: 'welcomed' }).boundingBox());
    await until('the view stands still', async () => {
      const before = await exitBox();
      await new Promise((r) => setTimeout(r, 150));
      return before === (await exitBox());
    });
    const source = delayNode.locator('.react-flow__handle.source').first();
    const target = nodes.filter({ hasText: 'welcomed' }).locator('.react-flow__handle.target').first();
    const a = (await source.boundingBox())!;
    const b = (await target.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 20, a.y + 40, { steps: 5 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
    await page.mouse.up();
    await until('the dragged connection is saved', async () => (await edges.count()) === 3, 15_000);
    assert((await page.locator('.react-flow__edge path[marker-end]').count()) === 3, 'every arrow has an arrowhead');
    await shot('graph');

    // Keyboard: Tab to a step and press Enter selects it, as a click does.
    await sendNode.focus();
    await page.keyboard.press('Enter');
    await see(page.getByRole('region', { name: 'Selected step' }).getByRole('heading', { name: 'Send email' }));
    await page.getByLabel('Step to edit').selectOption({ label: 'None' });
    await page.reload();
    await until('the graph is drawn again', async () => (await nodes.count()) === 4 && (await edges.count()) === 3);

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
    await until('the graph is drawn again', async () => (await nodes.count()) === 4 && (await edges.count()) === 3);
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

    // The execution, as a person: the contact's email, waiting at the delay until a time with its zone.
    await page.goto(workflowUrl);
    await page.getByRole('link', { name: 'Executions' }).click();
    const rows = page.getByRole('table', { name: 'Executions' }).getByRole('row');
    await until(
      'the execution waits at the delay',
      async () => {
        if ((await rows.count()) === 2 && (await rows.nth(1).locator('.badge').filter({ hasText: /^waiting$/ }).count()) === 1) return true;
        await page.reload();
        await page.getByRole('table', { name: 'Executions' }).waitFor();
        return false;
      },
      30_000,
    );
    const row = rows.filter({ hasText: email });
    await see(row.getByRole('link', { name: email }));
    await see(row.getByRole('cell', { name: 'Delay', exact: true }));
    const until2h = (await row.locator('.wf-waiting').textContent()) ?? '';
    assert(/^waiting until .+\d{4}, .+(GMT|UTC|[A-Z]{3})/.test(until2h), `the row says until when, with the zone (${until2h})`);
    // Start a run by hand, naming the contact by its email (an unknown one is said beside the field).
    const startForm = page.getByRole('form', { name: 'Start for a contact' });
    const who = startForm.getByLabel('Start for a contact (email)');
    await who.fill('nobody@example.invalid');
    await startForm.getByRole('button', { name: 'Start' }).click();
    await see(startForm.getByText('No contact has the email nobody@example.invalid.'));
    const other = state.importedEmails?.[0] ?? 'person1@example.org';
    await who.fill(other);
    await startForm.getByRole('button', { name: 'Start' }).click();
    await see(rows.filter({ hasText: other }).getByRole('link', { name: other }), 15_000);
    await shot('executions');
    await row.getByRole('link', { name: `Steps of ${email}'s run` }).click();
    await see(page.getByRole('heading', { name: 'Execution of Welcome flow' }));
    const history = page.getByRole('list', { name: 'Step history' });
    // Trigger, Send email and the Delay, waiting until the same time.
    await until('the timeline shows three steps', async () => (await history.getByRole('listitem').count()) === 3, 10_000);
    // Sent (its subject and status) or, to an unsubscribed contact, not sent with the reason.
    await see(history.getByRole('listitem').nth(1).getByText(/^(Email|Not sent)$/));
    await see(history.getByRole('listitem').nth(2).getByText(until2h.replace(/^waiting /, '')));
    assert((await page.locator('pre').count()) === 0 || !(await page.locator('pre').first().isVisible()), 'no raw JSON shown unless asked for');
    await shot('execution');

    // The graph shows who is where: both runs at the delay.
    await page.goto(workflowUrl);
    await see(nodes.filter({ hasText: '2 hours' }).locator('.wf-node-count').filter({ hasText: '2 here waiting' }), 20_000);
    await shot('graph-counts');

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
