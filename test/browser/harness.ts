import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { freePort, systemEnv, TEST_SERVICE_ENV } from '../support/service-process';

export const ROOT = join(__dirname, '..', '..');

/** The flags the machine notes prescribe for Debian's Chromium as root on a closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Service {
  baseUrl: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The built service (`dist/main.js`, as `npm start` runs it) in embedded mode on a free port
 * with a fresh data directory; emails go to `$dataDir/outbox`.
 */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  for (const file of ['dist/main.js', 'dist/web/index.html']) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` before \`npm run test:browser\``);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-browser-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...systemEnv(),
      ...TEST_SERVICE_ENV,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before answering:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not answer /health within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  // Playwright starts it with a new, empty profile directory of its own each time.
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** What the journeys hand each other (the user, the project, what they created). */
export interface JourneyState {
  email?: string;
  password?: string;
  projectId?: string;
  projectName?: string;
  domain?: string;
  templateId?: string;
  templateName?: string;
  fromAddress?: string;
  importedEmails?: string[];
  segmentId?: string;
  segmentName?: string;
  segmentCount?: number;
  campaignId?: string;
  workflowId?: string;
  [key: string]: unknown;
}

export interface JourneyContext {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  service: Service;
  state: JourneyState;
  /**
   * Once the page settled: checks it with axe-core (a serious or critical violation fails the
   * journey) and saves a full-page screenshot named after the journey and `name`; call once per
   * page shown.
   */
  shot(name: string): Promise<void>;
  /** Opens a path inside the dashboard (`/login` → `<base>/app/login`). */
  goto(path: string): Promise<void>;
  /** The URL of a path inside the current project (`contacts` → `/app/p/<id>/contacts`). */
  projectUrl(path?: string): string;
}

export interface Journey {
  name: string;
  run(ctx: JourneyContext): Promise<void>;
}

export class Screenshots {
  private count = 0;
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async take(page: Page, journey: string, name: string): Promise<string> {
    this.count += 1;
    const slug = `${journey}-${name}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const file = join(this.dir, `${String(this.count).padStart(3, '0')}-${slug}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }

  /** Removes the screenshots of an earlier run (only the files this class writes). */
  clear(): void {
    for (const name of readdirSync(this.dir)) if (/^\d{3}-.*\.png$|^login-page-js\.json$|^accessibility\.json$/.test(name)) rmSync(join(this.dir, name));
  }

  note(name: string, text: string): void {
    writeFileSync(join(this.dir, name), text);
  }
}

/**
 * axe-core's automated checks (WCAG 2.1 A and AA rules) on the page as it is now: one line per
 * serious or critical violation, naming the rule and the first elements it found.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // A sandboxed frame (the template preview) runs no script, so axe cannot enter it; it holds the
  // user's email, not the dashboard.
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('iframe[sandbox]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const where = v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ') + (v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : '');
      const first = v.nodes[0];
      const why = first ? [...first.any, ...first.all, ...first.none].map((c) => c.message).find(Boolean) : undefined;
      return `${v.id} (${v.impact}): ${v.help} at ${where}${why ? ` (${why})` : ''}`;
    });
}

/** The element that has the keyboard focus, as a short tag for messages. */
export async function focused(page: Page): Promise<string> {
  return String(await page.evaluate('(() => { const e = document.activeElement; return e ? e.outerHTML.slice(0, 120) : "nothing"; })()'));
}

/** Whether the keyboard focus is on the element or inside it. */
export async function hasFocusWithin(locator: Locator): Promise<boolean> {
  return locator.first().evaluate((el) => {
    const node = el as unknown as { contains(other: unknown): boolean; ownerDocument: { activeElement: unknown } };
    return node.contains(node.ownerDocument.activeElement);
  });
}

/** Waits until the locator is visible (default 15 s) and returns it; the failure names it. */
export async function see(locator: Locator, timeout = 15_000): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (err) {
    throw new Error(`expected to see ${locator.toString()}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  return locator.first();
}

/** Waits until `check` returns true (polling), else fails with `what`. */
export async function until(what: string, check: () => Promise<boolean>, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The text of an .eml with quoted-printable soft line breaks and escapes undone (enough to read links). */
function readEml(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for a message in the service's outbox whose text matches every pattern; returns its text. */
export async function waitForMail(service: Service, patterns: RegExp[], timeout = 30_000): Promise<string> {
  const dir = join(service.dataDir, 'outbox');
  let found: string | undefined;
  await until(`an outbox message matching ${patterns.join(' and ')}`, async () => {
    if (!existsSync(dir)) return false;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.eml')) continue;
      const text = readEml(join(dir, name));
      if (patterns.every((p) => p.test(text))) {
        found = text;
        return true;
      }
    }
    return false;
  }, timeout);
  return found!;
}
