type Env = Record<string, string | undefined>;
const { serviceProcess } = require('../../scripts/service-env') as { serviceProcess(env: Env): { env: Env; args: string[] } };
const serviceEnv = (env: Env): Env => serviceProcess(env).env;
const serviceArgs = (env: Env): string[] => serviceProcess(env).args;

const DB = 'postgres://localhost/db';

describe('serviceProcess (the environment and Node flags npm start gives the service)', () => {
  it('embedded mode: the malloc thresholds that give freed memory back, and no bound on V8 old generation', () => {
    expect(serviceEnv({ PORT: '8080' })).toEqual({
      PORT: '8080',
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
    });
  });

  it("keeps the operator's own values", () => {
    expect(serviceEnv({ MALLOC_TRIM_THRESHOLD_: '0' })).toMatchObject({ MALLOC_TRIM_THRESHOLD_: '0', MALLOC_MMAP_THRESHOLD_: '131072' });
    const own = { DATABASE_URL: DB, NODE_OPTIONS: '--max-old-space-size=1024' };
    expect(serviceEnv(own)).toEqual(own);
    expect(serviceEnv({ NODE_OPTIONS: '--max-old-space-size=2048' }).NODE_OPTIONS).toBe('--max-old-space-size=2048');
  });

  it('services mode (DATABASE_URL): the bound at 256 MB, added to the Node options already set, no malloc settings', () => {
    expect(serviceEnv({ DATABASE_URL: DB })).toEqual({ DATABASE_URL: DB, NODE_OPTIONS: '--max-old-space-size=256' });
    expect(serviceEnv({ DATABASE_URL: DB, NODE_OPTIONS: '--enable-source-maps' }).NODE_OPTIONS).toBe('--enable-source-maps --max-old-space-size=256');
  });

  it('embedded mode: gc exposed for the idle collector (src/platform/memory/idle-collector.ts)', () => {
    expect(serviceArgs({})).toEqual(['--expose-gc']);
    expect(serviceArgs({ NODE_OPTIONS: '--max-old-space-size=1024' })).toEqual(['--expose-gc']);
  });

  it("services mode: V8's growing factor 2 with the bound; with the operator's own bound, V8's own factor", () => {
    expect(serviceArgs({ DATABASE_URL: DB })).toEqual(['--heap-growing-percent=100']);
    expect(serviceArgs({ DATABASE_URL: DB, NODE_OPTIONS: '--max-old-space-size=1024' })).toEqual([]);
  });

  it('gives Node flags it accepts on the command line: gc exposed, and the growing factor taken beside the bound', () => {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const embedded = spawnSync(process.execPath, [...serviceArgs({}), '-e', 'process.exit(typeof gc === "function" ? 0 : 3)'], { encoding: 'utf8' });
    expect(embedded.stderr).toBe('');
    expect(embedded.status).toBe(0);
    const services = serviceProcess({ DATABASE_URL: DB, PATH: process.env.PATH });
    const check = 'const v8 = require("v8"); process.exit(v8.getHeapStatistics().heap_size_limit < 1024 * 1048576 ? 0 : 3)';
    const run = spawnSync(process.execPath, [...services.args, '-e', check], { encoding: 'utf8', env: services.env });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
