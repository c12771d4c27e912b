import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The packages (under node_modules) that a child process has loaded after running `script`. */
function loadedAfter(script: string): string[] {
  const probe = `${script}
    const loaded = new Set(Object.keys(require.cache).map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1]).filter(Boolean));
    process.stdout.write(JSON.stringify([...loaded]));`;
  const run = spawnSync(process.execPath, ['-r', './test/support/ts-register.js', '-e', probe], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`probe failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

describe('client SDKs load on first use (src/platform/sdks.ts), not with the application', () => {
  const SDKS = ['@aws-sdk/client-ses', '@aws-sdk/client-s3', 'stripe'];

  it('loading every module of the application loads none of them', () => {
    const loaded = loadedAfter(`require('./src/app.module');`);
    expect(loaded).toContain('@nestjs/core'); // the probe sees the application's packages
    expect(loaded.filter((p) => SDKS.includes(p))).toEqual([]);
  });

  it('each loads when its accessor is first called', () => {
    const loaded = loadedAfter(`const { sdks } = require('./src/platform/sdks'); sdks.ses(); sdks.s3(); sdks.stripe();`);
    expect(SDKS.filter((p) => !loaded.includes(p))).toEqual([]);
  });
});
