import Papa from 'papaparse';
import type { ContactRow } from '../contacts.rows';
import { csvCell, csvChunk, csvHeader, dataValue, KeyType, ndjsonChunk } from './export-format';

const row = (id: string, email: string, data: Record<string, unknown>): ContactRow => ({
  id,
  project_id: 'p',
  email,
  subscribed: true,
  data,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: new Date('2026-11-02T11:00:00.000Z'),
});

const KEYS: KeyType[] = [
  { key: 'plan', type: 'string' },
  { key: 'seats', type: 'number' },
  { key: 'vip', type: 'boolean' },
  { key: 'renewal', type: 'date' },
  { key: 'tags', type: 'string' },
  { key: 'profile.tier', type: 'string' },
];

describe('bulk export formats', () => {
  it('names the contact columns as the API does, then one data.<key> column per key', () => {
    expect(csvHeader(KEYS)).toEqual(['id', 'email', 'subscribed', 'createdAt', 'updatedAt', 'data.plan', 'data.seats', 'data.vip', 'data.renewal', 'data.tags', 'data.profile.tier']);
  });

  it('writes each value by its type, never converting one that does not have its key type', () => {
    expect(csvCell('pro')).toBe('pro');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(false)).toBe('false');
    expect(csvCell('2026-12-01')).toBe('2026-12-01');
    expect(csvCell(['a', 'b'])).toBe('["a","b"]');
    expect(csvCell({ a: 1 })).toBe('{"a":1}');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('007')).toBe('007');
  });

  it('finds a nested key by its path, and a top-level key with a dot as itself', () => {
    expect(dataValue({ profile: { tier: 'gold' } }, 'profile.tier')).toBe('gold');
    expect(dataValue({ 'profile.tier': 'flat' }, 'profile.tier')).toBe('flat');
    expect(dataValue({ profile: 'x' }, 'profile.tier')).toBeUndefined();
    expect(dataValue({}, 'constructor')).toBeUndefined();
  });

  it('quotes commas, quotes and line breaks so the file parses back to the same cells', () => {
    const rows = [
      row('cnt_1', 'a@example.com', { plan: 'pro, yearly', seats: 3, vip: true, renewal: '2026-12-01T00:00:00.000Z', tags: ['x', 'y'], profile: { tier: 'say "hi"' } }),
      row('cnt_2', 'b@example.com', { plan: 'line one\nline two' }),
    ];
    const text = csvChunk(rows, KEYS, true) + csvChunk([row('cnt_3', 'c@example.com', { seats: 1 })], KEYS, false);
    expect(text.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
    expect(parsed).toEqual([
      csvHeader(KEYS),
      ['cnt_1', 'a@example.com', 'true', '2026-11-01T10:00:00.000Z', '2026-11-02T11:00:00.000Z', 'pro, yearly', '3', 'true', '2026-12-01T00:00:00.000Z', '["x","y"]', 'say "hi"'],
      ['cnt_2', 'b@example.com', 'true', '2026-11-01T10:00:00.000Z', '2026-11-02T11:00:00.000Z', 'line one\nline two', '', '', '', '', ''],
      ['cnt_3', 'c@example.com', 'true', '2026-11-01T10:00:00.000Z', '2026-11-02T11:00:00.000Z', '', '1', '', '', '', ''],
    ]);
    expect(text).toContain('"pro, yearly"');
    expect(text).toContain('"say ""hi"""');
  });

  it('writes the header alone for an empty selection, and nothing for an empty later chunk', () => {
    expect(csvChunk([], KEYS, true)).toBe(`${csvHeader(KEYS).join(',')}\r\n`);
    expect(csvChunk([], KEYS, false)).toBe('');
  });

  it('writes NDJSON as one contact per line, as the API shows it', () => {
    const lines = ndjsonChunk([row('cnt_1', 'a@example.com', { plan: 'a\nb' }), row('cnt_2', 'b@example.com', {})]).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0])).toEqual({
      id: 'cnt_1',
      email: 'a@example.com',
      subscribed: true,
      confirmation: null,
      confirmedAt: null,
      data: { plan: 'a\nb' },
      topics: {},
      snoozedUntil: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-02T11:00:00.000Z',
    });
  });
});
