import { bulkProgress, planBulkItems, summarizeChunk } from './bulk-plan';

const A = 'cnt_' + 'a'.repeat(32);
const B = 'cnt_' + 'b'.repeat(32);
const C = 'cnt_' + 'c'.repeat(32);

describe('planBulkItems', () => {
  it('marks malformed ids invalid and repeats duplicate, keeping request order', () => {
    expect(planBulkItems([A, 'nope', B, A, 'cnt_XYZ', '', B])).toEqual([
      { index: 0, id: A, kind: 'target' },
      { index: 1, id: 'nope', kind: 'invalid' },
      { index: 2, id: B, kind: 'target' },
      { index: 3, id: A, kind: 'duplicate' },
      { index: 4, id: 'cnt_XYZ', kind: 'invalid' },
      { index: 5, id: '', kind: 'invalid' },
      { index: 6, id: B, kind: 'duplicate' },
    ]);
  });

  it('rejects ids with the right prefix but wrong length or case', () => {
    expect(planBulkItems(['cnt_' + 'a'.repeat(31), 'cnt_' + 'A'.repeat(32), 'CNT_' + 'a'.repeat(32)]).map((i) => i.kind)).toEqual([
      'invalid',
      'invalid',
      'invalid',
    ]);
  });
});

describe('summarizeChunk', () => {
  it('counts changed as success, found-but-same and duplicates as unchanged, the rest as failures', () => {
    const items = planBulkItems([A, B, C, 'bad', A]);
    expect(summarizeChunk(items, new Set([A]), new Set([A, B]))).toEqual({
      success: 1,
      unchanged: 2,
      errors: [
        { contactId: C, error: 'not_found' },
        { contactId: 'bad', error: 'invalid_id' },
      ],
    });
  });
});

describe('bulkProgress', () => {
  it.each([
    [0, 10, 0],
    [3, 10, 30],
    [999, 1000, 99],
    [1000, 1000, 100],
    [0, 0, 100],
  ])('%i of %i is %i%%', (processed, total, progress) => {
    expect(bulkProgress(processed, total)).toBe(progress);
  });
});
