import { within } from './within';

describe('within', () => {
  it("gives the work's value when it settles in time", async () => {
    expect(await within(Promise.resolve('done'), 1_000, 'late')).toBe('done');
  });

  it('gives the fallback when the work does not settle in time', async () => {
    expect(await within(new Promise(() => undefined), 10, 'late')).toBe('late');
  });

  it('rejects with the work when it fails in time', async () => {
    await expect(within(Promise.reject(new Error('refused')), 1_000, 'late')).rejects.toThrow('refused');
  });
});
