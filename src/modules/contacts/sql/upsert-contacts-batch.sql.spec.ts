import type { UpsertStatementInput } from './upsert-contact.sql';
import { buildUpsertBatchParams, rowsByItem, upsertKey } from './upsert-contacts-batch.sql';

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

const item = (projectId: string, email: string, extra: Partial<UpsertStatementInput> = {}): UpsertStatementInput => ({
  projectId,
  email,
  subscribed: null,
  defaultSubscribed: true,
  set: {},
  unset: [],
  flipData: { source: 'track' },
  fieldTypes: [],
  ...extra,
});

describe('batch statement parameters', () => {
  it('encodes items as one JSON array, field types first-wins per project and key', () => {
    const [items, fields] = buildUpsertBatchParams([
      item(P1, 'a@example.com', { subscribed: false, set: { plan: 'pro' }, unset: ['old'], fieldTypes: [['plan', 'string']], event: { name: 'buy', data: { plan: 'pro', once: 1 } } }),
      item(P1, 'b@example.com', { set: { plan: 5 }, defaults: { name: 'Bo' }, fieldTypes: [['plan', 'number'], ['n', 'number']] }),
      item(P2, 'a@example.com', { defaultSubscribed: false, fieldTypes: [['plan', 'boolean']], confirm: 'new' }),
    ]);
    expect(JSON.parse(items)).toEqual([
      { i: 0, p: P1, e: 'a@example.com', s: false, d: true, sv: { plan: 'pro' }, un: ['old'], df: {}, fd: { source: 'track' }, en: 'buy', ed: { plan: 'pro', once: 1 }, cw: null },
      { i: 1, p: P1, e: 'b@example.com', s: null, d: true, sv: { plan: 5 }, un: [], df: { name: 'Bo' }, fd: { source: 'track' }, en: null, ed: null, cw: null },
      { i: 2, p: P2, e: 'a@example.com', s: null, d: false, sv: {}, un: [], df: {}, fd: { source: 'track' }, en: null, ed: null, cw: 'new' },
    ]);
    expect(JSON.parse(fields)).toEqual([
      { p: P1, k: 'plan', t: 'string' },
      { p: P1, k: 'n', t: 'number' },
      { p: P2, k: 'plan', t: 'boolean' },
    ]);
  });

  it('maps rows back to items by index (missing ones undefined) and keys by project and email', () => {
    expect(rowsByItem([{ i: 2, id: 'c' }, { i: 0, id: 'a' }], 3)).toEqual([{ id: 'a' }, undefined, { id: 'c' }]);
    expect(upsertKey(item(P1, 'a@example.com'))).not.toBe(upsertKey(item(P2, 'a@example.com')));
  });
});
