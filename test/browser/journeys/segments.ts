import { assert, type Journey, see, until } from '../harness';

/** Build a dynamic segment in the filter builder (live count), see its members; a static segment with pasted members. */
export const segmentsJourney: Journey = {
  name: 'segments',
  async run({ page, projectUrl, shot, state }) {
    await page.goto(projectUrl('segments'));
    await see(page.getByRole('heading', { name: 'No segments yet' }).or(page.getByRole('table', { name: 'Segments' })));
    await shot('list-empty');
    await page.getByRole('link', { name: 'New segment' }).first().click();
    await see(page.getByRole('heading', { name: 'New segment' }));
    await page.getByLabel('Name', { exact: true }).fill('Pro plan');

    const count = page.getByRole('status', { name: 'Matching contacts' });
    // email contains "@example.org": every imported contact.
    await page.getByLabel('Group 1 filter 1 operator').selectOption('contains');
    await page.getByLabel('Group 1 filter 1 value').fill('@example.org');
    await see(count.filter({ hasText: /\d+ contacts match now/ }), 20_000);
    const all = Number(/(\d[\d,]*) contacts match/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    assert(all > 0, `the imported contacts match (${all})`);

    // AND data.plan is "pro": fewer.
    await page.getByRole('button', { name: 'Add filter to group 1' }).click();
    await page.getByLabel('Group 1 filter 2 field').selectOption('data.plan');
    await see(page.locator('.field-error').filter({ hasText: 'Enter a value.' }));
    await page.getByLabel('Group 1 filter 2 value').fill('pro');
    await until('the live count drops for plan = pro', async () => {
      const n = Number(/(\d[\d,]*) contacts match/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
      return Number.isInteger(n) && n > 0 && n < all;
    }, 20_000);
    const pro = Number(/(\d[\d,]*) contacts match/.exec((await count.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    state.segmentCount = pro;
    await shot('builder-live-count');

    // An OR group with an event condition, then removed again.
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Group 2 filter 1 field').selectOption('__event');
    await page.getByLabel('Group 2 filter 1 event name').fill('never-happened');
    await page.getByLabel('Group 2 filter 1 operator').selectOption('triggeredWithin');
    await page.getByLabel('Group 2 filter 1 value').fill('7');
    await see(page.getByLabel('Group 2 filter 1 unit'));
    await shot('builder-event-group');
    await page.getByRole('button', { name: 'Remove group 2', exact: true }).click();

    await page.getByRole('button', { name: 'Create segment' }).click();
    await see(page.getByRole('heading', { name: 'Pro plan' }));
    await see(page.getByRole('table', { name: 'Members' }));
    const rows = await page.getByRole('table', { name: 'Members' }).getByRole('row').count();
    assert(rows - 1 === Math.min(pro, 25), `the members list shows the ${pro} members (${rows - 1} rows)`);
    state.segmentId = /\/segments\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    state.segmentName = 'Pro plan';
    await shot('detail');

    // A static segment: paste two addresses, one unknown.
    await page.goto(projectUrl('segments/new'));
    await page.getByLabel('Name', { exact: true }).fill('Hand picked');
    await page.getByLabel('Type').selectOption('STATIC');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await see(page.getByRole('heading', { name: 'Hand picked' }));
    await page.getByLabel('Email addresses').fill(`${state.importedEmails?.[1] ?? 'person2@example.org'}\nnobody@example.net`);
    await page.getByRole('button', { name: 'Add to segment' }).click();
    await see(page.getByText(/Added 1, already members 0, created 0\..*nobody@example\.net/));
    await see(page.getByRole('table', { name: 'Members' }));
    await shot('static');

    await page.goto(projectUrl('segments'));
    await see(page.getByRole('link', { name: 'Pro plan' }));
    // The live count saved nothing: the list holds exactly the two segments made here.
    assert((await page.getByRole('link', { name: /^(Pro plan|Hand picked)$/ }).count()) === 2, 'both segments are listed');
    assert((await page.locator('table tbody tr').count()) === 2, 'the live count left no segment behind');
    await shot('list');
  },
};
