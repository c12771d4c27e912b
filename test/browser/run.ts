/**
 * `npm run test:browser`: the dashboard's journeys in Debian's headless Chromium (playwright-core)
 * against the built service (`npm run build` first) in embedded mode. Journeys run in order in one
 * browser session and hand each other what they made (journeys/index.ts). Screenshots of every
 * page go to $BROWSER_SCREENSHOTS_DIR (default test/browser/screenshots; CI sets it under its
 * LOG_DIR), and every page shot is checked with axe-core first (accessibility.json there lists
 * what each check found). Ends with the line
 * "N passed, N failed" and exit code 1 when anything failed.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, type JourneyContext, type JourneyState, launchBrowser, ROOT, Screenshots, type Service, startService } from './harness';
import { JOURNEYS } from './journeys';

const LOGIN_JS_BUDGET = 250 * 1024;

/** Loads /app/login in a fresh context and sums the gzip size of every script it fetched. */
async function measureLoginPage(browser: Browser, baseUrl: string, shots: Screenshots): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then((body) => {
        scripts.push({ url: response.url().replace(baseUrl, ''), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  const started = Date.now();
  await page.goto(`${baseUrl}/app/login`);
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  const shownMs = Date.now() - started;
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
  const report = {
    page: '/app/login',
    scripts: scripts.sort((a, b) => b.gzip - a.gzip),
    totalRawBytes: raw,
    totalGzipBytes: gzip,
    budgetGzipBytes: LOGIN_JS_BUDGET,
    formShownMs: shownMs,
  };
  shots.note('login-page-js.json', JSON.stringify(report, null, 2));
  const line = `login page initial JS: ${(gzip / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw, ${scripts.length} files; budget 250 KB), form shown in ${shownMs} ms`;
  if (gzip > LOGIN_JS_BUDGET) throw new Error(`${line}: over budget`);
  return line;
}

function watchPage(page: Page, problems: string[]): void {
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // The API's 4xx answers the journeys provoke on purpose are logged by Chromium as failed loads.
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    problems.push(`console error: ${text}`);
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const shots = new Screenshots(process.env.BROWSER_SCREENSHOTS_DIR ?? join(ROOT, 'test', 'browser', 'screenshots'));
  shots.clear();
  const only = process.env.BROWSER_JOURNEYS?.split(',').map((s) => s.trim());
  let service: Service | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  try {
    // The webhooks journey's receiver listens on loopback, which the service refuses by default.
    service = await startService({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    browser = await launchBrowser();
    console.log(`service ${service.baseUrl}, screenshots in ${shots.dir}`);
    try {
      console.log(`✓ ${await measureLoginPage(browser, service.baseUrl, shots)}`);
      passed += 1;
    } catch (err) {
      console.log(`✗ login page size: ${err instanceof Error ? err.message : String(err)}`);
      failed += 1;
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.baseUrl });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    watchPage(page, problems);
    const state: JourneyState = {};
    const axeReport: { page: string; url: string; violations: string[] }[] = [];
    for (const journey of JOURNEYS) {
      if (only && !only.includes(journey.name)) continue;
      const t0 = Date.now();
      problems.length = 0;
      const ctx: JourneyContext = {
        page,
        context,
        baseUrl: service.baseUrl,
        service,
        state,
        shot: async (name) => {
          // Shoot the page as a person sees it once it settled: no request or spinner pending.
          // Bounded: a frame removed mid-load (the template preview's iframe) never reports idle.
          await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
          await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
          const violations = await accessibilityViolations(page);
          axeReport.push({ page: `${journey.name}/${name}`, url: page.url().replace(service!.baseUrl, ''), violations });
          for (const v of violations) problems.push(`accessibility on ${journey.name}/${name}: ${v}`);
          await shots.take(page, journey.name, name);
        },
        goto: async (path) => void (await page.goto(`${service!.baseUrl}/app${path.startsWith('/') ? path : `/${path}`}`)),
        projectUrl: (path = '') => `${service!.baseUrl}/app/p/${state.projectId}${path ? `/${path}` : ''}`,
      };
      try {
        await journey.run(ctx);
        if (problems.length) throw new Error(`the page reported problems:\n  ${problems.join('\n  ')}`);
        passed += 1;
        console.log(`✓ ${journey.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (err) {
        failed += 1;
        console.log(`✗ ${journey.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n  ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        await shots.take(page, journey.name, 'failure').catch(() => undefined);
      }
    }
    shots.note('accessibility.json', JSON.stringify(axeReport, null, 2));
    console.log(`axe-core checked ${axeReport.length} pages: ${axeReport.filter((r) => r.violations.length).length} with serious or critical violations`);
  } catch (err) {
    failed += 1;
    console.log(`✗ set-up: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await browser?.close().catch(() => undefined);
    if (failed && service) console.log(`--- last service output\n${service.output().split('\n').slice(-30).join('\n')}`);
    await service?.stop().catch(() => undefined);
  }
  console.log(`browser journeys took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

void main();
