import { affectedCount, returnedRows } from './query-results';
import { isDeadlock, isRetryableConflict, isUniqueViolation, sqlState } from './pg-errors';

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

describe('query results', () => {
  it('reads rows and counts of both result shapes', () => {
    expect(returnedRows([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(returnedRows([[{ id: 1 }], 1])).toEqual([{ id: 1 }]);
    expect(affectedCount([[], 3])).toBe(3);
    expect(affectedCount([{ id: 1 }, { id: 2 }])).toBe(2);
    expect(returnedRows(undefined)).toEqual([]);
  });
});
