import { describe, expect, it } from 'vitest';
import { dataPatch } from '../../lib/forms';
import { type DataRow, fromRows, leafPaths, newKeyError, readColumns, rowValue, toRows, valueAt } from './dataFields';

const types = new Map([
  ['company', 'string'],
  ['visits', 'number'],
  ['vip', 'boolean'],
  ['born', 'date'],
  ['profile.tier', 'string'],
  ['code', 'string'],
] as const);

describe('contact data as typed rows', () => {
  const stored = { company: 'Acme', visits: 3, vip: true, born: '1990-05-01', seen: '2026-01-02T03:04:05Z', profile: { tier: 'gold', since: 2020 }, tags: ['a'], code: '2026-01-01' };

  it('makes one row per leaf, typed by the field (a string field that looks like a date stays text)', () => {
    const rows = toRows(stored, types);
    expect(rows.map((r) => [r.path.join('.'), r.type, r.text])).toEqual([
      ['company', 'string', 'Acme'],
      ['visits', 'number', '3'],
      ['vip', 'boolean', 'true'],
      ['born', 'date', '1990-05-01'],
      ['seen', 'date', '2026-01-02T03:04:05Z'],
      ['profile.tier', 'string', 'gold'],
      ['profile.since', 'number', '2020'],
      ['tags', 'json', '["a"]'],
      ['code', 'string', '2026-01-01'],
    ]);
  });

  it('rebuilds the same object when nothing changed, so the patch is empty', () => {
    const built = fromRows(toRows(stored, types));
    expect('data' in built && dataPatch(stored, built.data)).toEqual({});
  });

  it('patches a changed leaf, re-sends a nested object without a removed leaf, and nulls a removed key', () => {
    const rows = toRows(stored, types)
      .filter((r) => r.path.join('.') !== 'profile.since' && r.path[0] !== 'vip')
      .map((r) => (r.path[0] === 'visits' ? { ...r, text: '4.5' } : r));
    const built = fromRows(rows);
    expect('data' in built && dataPatch(stored, built.data)).toEqual({ visits: 4.5, vip: null, profile: { tier: 'gold' } });
  });

  it('refuses bad input per row: a number, a date, JSON, an empty text', () => {
    const row = (type: DataRow['type'], text: string): DataRow => ({ id: type, path: [type], type, text });
    expect(rowValue(row('number', 'abc'))).toEqual({ error: 'Enter a number.' });
    expect(rowValue(row('number', ''))).toEqual({ error: 'Enter a number.' });
    expect(rowValue(row('date', '2026-02-30'))).toHaveProperty('error');
    expect(rowValue(row('json', '[1,'))).toHaveProperty('error');
    expect(rowValue(row('string', ''))).toHaveProperty('error');
    expect(rowValue(row('boolean', 'false'))).toEqual({ value: false });
    expect(fromRows([row('number', 'x'), row('string', 'ok')])).toEqual({ errors: { number: 'Enter a number.' } });
  });

  it('names a new field: not empty, not reserved, not taken or overlapping', () => {
    const rows = toRows(stored, types);
    expect(newKeyError(' ', rows)).toBe('Name the field.');
    expect(newKeyError('email', rows)).toMatch(/reserved/);
    expect(newKeyError('company', rows)).toMatch(/already/);
    expect(newKeyError('profile', rows)).toMatch(/overlaps/);
    expect(newKeyError('company.name', rows)).toMatch(/overlaps/);
    expect(newKeyError('a..b', rows)).toMatch(/dotted/);
    expect(newKeyError('profile.city', rows)).toBeUndefined();
  });
});

describe('list columns', () => {
  it('reads values and leaf paths by dotted path, and stored columns defensively', () => {
    expect(valueAt({ profile: { tier: 'gold' } }, 'profile.tier')).toBe('gold');
    expect(valueAt({ profile: 'x' }, 'profile.tier')).toBeUndefined();
    expect(leafPaths({ a: 1, p: { b: 2, c: {} } })).toEqual(['a', 'p.b', 'p.c']);
    expect(readColumns({ getItem: () => '["plan", 3]' }, 'p')).toEqual(['plan']);
    expect(readColumns({ getItem: () => 'not json' }, 'p')).toEqual([]);
  });
});
