import { affectedCount, returnedRows } from './query-results';
import { isDeadlock, isRetryableConflict, isUniqueViolation, retryOnConflict, sqlState } from './pg-errors';

describe('pg errors', () => {
  it('reads the SQLSTATE of a driver error and of a QueryFailedError wrapping one', () => {
    expect(sqlState({ code: '23505' })).toBe('23505');
    expect(sqlState({ driverError: { code: '40P01' }, code: undefined })).toBe('40P01');
    expect(isUniqueViolation({ driverError: { code: '23505' } })).toBe(true);
    expect(isDeadlock({ code: '40P01' })).toBe(true);
    expect(isRetryableConflict({ code: '40001' })).toBe(true);
    expect(isRetryableConflict(new Error('plain'))).toBe(false);
    expect(sqlState(null)).toBeUndefined();
  });
});

describe('retryOnConflict', () => {
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('runs the work again after a deadlock or serialization failure, and returns its result', async () => {
    const work = jest.fn().mockRejectedValueOnce(deadlock).mockRejectedValueOnce({ driverError: { code: '40001' } }).mockResolvedValueOnce('done');
    await expect(retryOnConflict(work)).resolves.toBe('done');
    expect(work).toHaveBeenCalledTimes(3);
  });

  it('gives up after its attempts with the last conflict', async () => {
    const work = jest.fn().mockRejectedValue(deadlock);
    await expect(retryOnConflict(work, 2)).rejects.toBe(deadlock);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('does not run the work again for any other error', async () => {
    const unique = { code: '23505' };
    const work = jest.fn().mockRejectedValue(unique);
    await expect(retryOnConflict(work)).rejects.toBe(unique);
    expect(work).toHaveBeenCalledTimes(1);
  });
});

describe('query results', () => {
  it('reads rows and counts of both result shapes', () => {
    expect(returnedRows([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(returnedRows([[{ id: 1 }], 1])).toEqual([{ id: 1 }]);
    expect(affectedCount([[], 3])).toBe(3);
    expect(affectedCount([{ id: 1 }, { id: 2 }])).toBe(2);
    expect(returnedRows(undefined)).toEqual([]);
  });
});
