const { serviceEnv } = require('../../scripts/service-env') as { serviceEnv(env: Record<string, string | undefined>): Record<string, string | undefined> };

const DB = 'postgres://localhost/db';

describe('serviceEnv (the environment npm start gives the service)', () => {
  it('embedded mode: adds the malloc thresholds that give freed memory back, no heap bound', () => {
    expect(serviceEnv({ PORT: '8080' })).toEqual({ PORT: '8080', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' });
  });

  it("keeps the operator's own values", () => {
    expect(serviceEnv({ MALLOC_TRIM_THRESHOLD_: '0' })).toMatchObject({ MALLOC_TRIM_THRESHOLD_: '0', MALLOC_MMAP_THRESHOLD_: '131072' });
    const own = { DATABASE_URL: DB, NODE_OPTIONS: '--max-old-space-size=1024' };
    expect(serviceEnv(own)).toBe(own);
  });

  it('services mode (DATABASE_URL): the V8 heap bound, added to the Node options already set, no malloc settings', () => {
    expect(serviceEnv({ DATABASE_URL: DB })).toEqual({ DATABASE_URL: DB, NODE_OPTIONS: '--max-old-space-size=256' });
    expect(serviceEnv({ DATABASE_URL: DB, NODE_OPTIONS: '--enable-source-maps' }).NODE_OPTIONS).toBe('--enable-source-maps --max-old-space-size=256');
  });
});
