const { serviceEnv } = require('../../scripts/service-env') as { serviceEnv(env: Record<string, string | undefined>): Record<string, string | undefined> };

const DB = 'postgres://localhost/db';

describe('serviceEnv (the environment npm start gives the service)', () => {
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
});
