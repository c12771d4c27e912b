/**
 * `npm run test:browser:perf`: the contacts page of a project with many contacts (default
 * 1,000,000; PERF_CONTACTS=N), in Debian's headless Chromium. The service runs in this process
 * (embedded mode, from the sources) so the contacts can be written with one SQL statement per
 * batch instead of a million API calls; the dashboard is the built one (`npm run build` first).
 * Reports the time from a click on "Contacts" and from a cold page load to the first rows
 * painted; fails past PERF_BUDGET_MS (default 1000) for the click.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config';
import { createRuntime } from '../../src/platform/runtime';
import { launchBrowser, ROOT, Screenshots, see } from './harness';

const COUNT = Number(process.env.PERF_CONTACTS ?? 1_000_000);
const BUDGET_MS = Number(process.env.PERF_BUDGET_MS ?? 1000);
const BATCH = 100_000;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-perf-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_SECRET: randomBytes(32).toString('hex'), WEB_DIST_DIR: join(ROOT, 'dist', 'web') });
  const runtime = await createRuntime(config);
  await runtime.app.listen(0, '127.0.0.1');
  const { port } = runtime.app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  const shots = new Screenshots(process.env.BROWSER_SCREENSHOTS_DIR ?? join(ROOT, 'test', 'browser', 'screenshots'));
  const browser = await launchBrowser();
  let failed = false;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${baseUrl}/app/signup`);
    await page.getByLabel('Email').fill('perf@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Project name').fill('Perf');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: /open the project/ }).click();
    await see(page.getByRole('heading', { name: 'Perf', exact: true }));
    const projectId = /\/p\/([0-9a-f-]{36})/.exec(page.url())![1];

    const db = runtime.app.get(DataSource);
    const seeded = Date.now();
    for (let from = 1; from <= COUNT; from += BATCH) {
      const to = Math.min(COUNT, from + BATCH - 1);
      await db.query(
        `INSERT INTO contacts (project_id, email, subscribed, data, created_at, updated_at)
         SELECT $1, 'person' || n || '@example.com', n % 10 <> 0, jsonb_build_object('plan', CASE WHEN n % 3 = 0 THEN 'pro' ELSE 'free' END),
                now() - make_interval(secs => $4 - n), now() - make_interval(secs => $4 - n)
         FROM generate_series($2::int, $3::int) AS n`,
        [projectId, from, to, COUNT],
      );
    }
    await db.query('ANALYZE contacts');
    console.log(`seeded ${COUNT.toLocaleString()} contacts in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    // From the overview, a click on Contacts until the first row is painted.
    await page.goto(`${baseUrl}/app/p/${projectId}`);
    await see(page.getByRole('heading', { name: 'Perf', exact: true }));
    const clicked = Date.now();
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await see(page.getByRole('row').nth(1), 30_000);
    const clickMs = Date.now() - clicked;
    await shots.take(page, 'perf', `contacts-${COUNT}`);
    // A cold load of the contacts URL (app boot, session, project, list).
    const loaded = Date.now();
    await page.goto(`${baseUrl}/app/p/${projectId}/contacts`);
    await see(page.getByRole('row').nth(1), 30_000);
    const coldMs = Date.now() - loaded;
    const total = await page.locator('.page-description').textContent();
    const line = `contacts page with ${COUNT.toLocaleString()} contacts: first rows ${clickMs} ms after the click (budget ${BUDGET_MS} ms), ${coldMs} ms on a cold load; header says "${total}"`;
    console.log(`${clickMs <= BUDGET_MS ? '✓' : '✗'} ${line}`);
    failed = clickMs > BUDGET_MS;
  } catch (err) {
    failed = true;
    console.log(`✗ ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    await browser.close();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`${failed ? 0 : 1} passed, ${failed ? 1 : 0} failed`);
  process.exit(failed ? 1 : 0);
}

void main();
