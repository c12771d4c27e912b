import { AppError } from './app-error';
import { clampLimit, cursorPage, decodeCursor, encodeCursor, offsetPage, parseOffsetQuery } from './pagination';

const statusOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as AppError).statusCode;
  }
};

describe('pagination', () => {
  it('defaults, clamps and validates limit', () => {
    expect(clampLimit(undefined)).toBe(20);
    expect(clampLimit('')).toBe(20);
    expect(clampLimit('5')).toBe(5);
    expect(clampLimit('100')).toBe(100);
    expect(clampLimit('101')).toBe(100);
    expect(clampLimit('999999999')).toBe(100);
    // However many digits: clamped like pageSize, not refused as "not an integer".
    expect(clampLimit('99999999999999999999')).toBe(100);
    expect(clampLimit('9'.repeat(400))).toBe(100);
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3', ['1', '2']]) expect(statusOf(() => clampLimit(bad))).toBe(422);
  });

  it('round-trips cursors and rejects tampered ones with 400', () => {
    const cursor = encodeCursor({ v: 'x', id: 'y' });
    expect(decodeCursor(cursor, (c) => typeof c.v === 'string')).toEqual({ v: 'x', id: 'y' });
    expect(decodeCursor(undefined, () => true)).toBeNull();
    expect(statusOf(() => decodeCursor('***', () => true))).toBe(400);
    expect(statusOf(() => decodeCursor(Buffer.from('[1]').toString('base64url'), () => true))).toBe(400);
    expect(statusOf(() => decodeCursor(Buffer.from('not json').toString('base64url'), () => true))).toBe(400);
    expect(statusOf(() => decodeCursor(cursor, () => false))).toBe(400);
  });

  it('builds cursor pages from limit + 1 rows', () => {
    expect(cursorPage([1, 2, 3], 2, (n) => n * 10, (last) => ({ last }), 7)).toEqual({ data: [10, 20], cursor: encodeCursor({ last: 2 }), hasMore: true, total: 7 });
    expect(cursorPage([1], 2, (n) => n, () => ({}), 0)).toEqual({ data: [1], cursor: null, hasMore: false, total: 0 });
  });

  it('builds offset pages', () => {
    expect(parseOffsetQuery({})).toEqual({ page: 1, pageSize: 20, offset: 0 });
    expect(parseOffsetQuery({ page: '3', pageSize: '10' })).toEqual({ page: 3, pageSize: 10, offset: 20 });
    expect(parseOffsetQuery({ pageSize: '500' }).pageSize).toBe(100);
    expect(statusOf(() => parseOffsetQuery({ page: '0' }))).toBe(422);
    expect(parseOffsetQuery({ pageSize: '99999999999999999999' }).pageSize).toBe(100);
    expect(() => parseOffsetQuery({ page: '99999999999999999999' })).toThrow(expect.objectContaining({ statusCode: 422, message: expect.any(String) }));
    expect(offsetPage(['a'], 2, 10, 11)).toEqual({ data: ['a'], page: 2, pageSize: 10, total: 11, totalPages: 2 });
  });
});
