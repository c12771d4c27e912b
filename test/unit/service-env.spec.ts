type Env = Record<string, string | undefined>;
const { serviceProcess } = require('../../scripts/service-env') as { serviceProcess(env: Env): { env: Env; args: string[] } };
const serviceEnv = (env: Env): Env => serviceProcess(env).env;
const serviceArgs = (env: Env): string[] => serviceProcess(env).args;

const DB = 'postgres://localhost/db';

describe('serviceProcess (the environment and Node flags npm start gives the service)', () => {
  it('embedded mode: the malloc thresholds that give freed memory back, and V8 old generation bounded at 384 MB', () => {
    expect(serviceEnv({ PORT: '8080' })).toEqual({
      PORT: '8080',
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
      NODE_OPTIONS: '--max-old-space-size=384',
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

  it("embedded mode: V8's heap growing factor held at 2 with the bound it sets (V8 would take ~1.35 for 384 MB); left alone in services mode and with the operator's own size", () => {
    expect(serviceArgs({})).toEqual(['--heap-growing-percent=100']);
    expect(serviceArgs({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(['--heap-growing-percent=100']);
    expect(serviceArgs({ DATABASE_URL: DB })).toEqual([]);
    expect(serviceArgs({ NODE_OPTIONS: '--max-old-space-size=1024' })).toEqual([]);
  });

  it('gives Node flags it accepts on the command line (NODE_OPTIONS refuses --heap-growing-percent)', () => {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const run = spawnSync(process.execPath, [...serviceArgs({}), '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
