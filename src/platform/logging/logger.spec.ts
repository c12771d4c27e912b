import { MAX_LOGGED_TEXT, serializeError } from './logger';

describe('serializeError', () => {
  it('clips statements and messages and reduces parameter lists to a count', () => {
    const err = Object.assign(new Error(`boom ${'m'.repeat(10_000)}`), {
      query: `SELECT ${'x, '.repeat(100_000)}1`,
      parameters: Array.from({ length: 5_000 }, (_, i) => `p${i}`),
      driverError: { code: '54000' },
      code: '54000',
    });
    const out = serializeError(err);
    expect(JSON.stringify(out).length).toBeLessThan(4 * MAX_LOGGED_TEXT + 1_000);
    expect(out).toMatchObject({ type: 'Error', code: '54000', driverCode: '54000', parameters: '5000 parameters' });
    expect(out.query).toMatch(/… \(\d+ chars\)$/);
  });

  it('keeps small errors whole and follows the cause', () => {
    const out = serializeError(new Error('outer', { cause: new TypeError('inner') }));
    expect(out).toMatchObject({ type: 'Error', message: 'outer', cause: { type: 'TypeError', message: 'inner' } });
  });
});
