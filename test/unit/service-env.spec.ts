const { serviceEnv } = require('../../scripts/service-env') as { serviceEnv(env: Record<string, string | undefined>): Record<string, string | undefined> };

describe('serviceEnv (the environment npm start gives the service)', () => {
  it('embedded mode: adds the malloc thresholds that give freed memory back', () => {
    expect(serviceEnv({ PORT: '8080' })).toEqual({ PORT: '8080', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' });
  });

  it("keeps the operator's own values", () => {
    expect(serviceEnv({ MALLOC_TRIM_THRESHOLD_: '0' })).toMatchObject({ MALLOC_TRIM_THRESHOLD_: '0', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  it('services mode (DATABASE_URL): the environment unchanged', () => {
    const env = { DATABASE_URL: 'postgres://localhost/db' };
    expect(serviceEnv(env)).toBe(env);
  });
});
