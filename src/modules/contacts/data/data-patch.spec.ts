import { applyDataPatch, compileDataPatch, RESERVED_DATA_KEYS, templateVariables } from './data-patch';
import { inferFieldType, isDateString, typedKeys } from './field-types';

describe('custom data rules', () => {
  const existing = { plan: 'pro', age: 30, profile: { tier: 'gold', since: 2020 }, tags: ['a'] };

  it.each([
    ['a primitive string is stored', { city: 'Berlin' }, { ...existing, city: 'Berlin' }, ['city']],
    ['a number is stored', { score: 1.5 }, { ...existing, score: 1.5 }, ['score']],
    ['zero is stored', { score: 0 }, { ...existing, score: 0 }, ['score']],
    ['false is stored', { vip: false }, { ...existing, vip: false }, ['vip']],
    ['an existing key is overwritten', { plan: 'free' }, { ...existing, plan: 'free' }, ['plan']],
    ['the same value changes nothing', { plan: 'pro' }, existing, []],
    ['null deletes the key', { plan: null }, { age: 30, profile: existing.profile, tags: ['a'] }, ['plan']],
    ['null for a missing key changes nothing', { nope: null }, existing, []],
    ['empty string is ignored', { plan: '' }, existing, []],
    ['empty string for a new key is ignored', { city: '' }, existing, []],
    ['whitespace string is stored (only the empty string is ignored)', { city: ' ' }, { ...existing, city: ' ' }, ['city']],
    ['a plain object replaces the stored object as a whole', { profile: { tier: 'silver' } }, { ...existing, profile: { tier: 'silver' } }, ['profile']],
    ['an equal nested object changes nothing', { profile: { since: 2020, tier: 'gold' } }, existing, []],
    ['an array is stored as sent', { tags: ['a', 'b'] }, { ...existing, tags: ['a', 'b'] }, ['tags']],
    ['{value, persistent:true} stores the value', { city: { value: 'Paris', persistent: true } }, { ...existing, city: 'Paris' }, ['city']],
    ['{value:null, persistent:true} deletes', { plan: { value: null, persistent: true } }, { age: 30, profile: existing.profile, tags: ['a'] }, ['plan']],
    ['{value, persistent:false} is not stored', { code: { value: '1234', persistent: false } }, existing, []],
    ['{value, persistent:false} does not touch a stored key of that name', { plan: { value: 'x', persistent: false } }, existing, []],
    ['an object with value and other keys is a plain object', { box: { value: 1, persistent: false, x: 1 } }, { ...existing, box: { value: 1, persistent: false, x: 1 } }, ['box']],
    ['{value, persistent:"no"} is a plain object', { box: { value: 1, persistent: 'no' } }, { ...existing, box: { value: 1, persistent: 'no' } }, ['box']],
    ['keys not sent keep their values', {}, existing, []],
    ['non-finite numbers are ignored', { n: Number.NaN }, existing, []],
  ])('%s', (_name, patch, expected, changed) => {
    const result = applyDataPatch(existing, patch as Record<string, unknown>);
    expect(result.data).toEqual(expected);
    expect(result.changedKeys.sort()).toEqual([...changed].sort());
  });

  it.each(RESERVED_DATA_KEYS.map((k) => [k]))('reserved key %s is dropped silently', (key) => {
    const result = applyDataPatch({ a: 1 }, { [key]: 'x', b: 2 });
    expect(result.data).toEqual({ a: 1, b: 2 });
    expect(result.transient).toEqual({});
  });

  it('reserved keys are dropped even as one-off values and nulls', () => {
    const result = applyDataPatch({ a: 1 }, { email: { value: 'x', persistent: false }, id: null });
    expect(result).toEqual({ data: { a: 1 }, transient: {}, changedKeys: [] });
  });

  it('drops __proto__ without touching prototypes', () => {
    const result = applyDataPatch({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}, "b": 2}'));
    expect(result.data).toEqual({ a: 1, b: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reserved keys are case-sensitive (Email is an ordinary key)', () => {
    expect(applyDataPatch({}, { Email: 'x' }).data).toEqual({ Email: 'x' });
  });

  it('collects one-off values separately and overlays them as template variables', () => {
    const result = applyDataPatch({ plan: 'pro' }, { code: { value: '1234', persistent: false }, plan: { value: 'trial', persistent: false } });
    expect(result.transient).toEqual({ code: '1234', plan: 'trial' });
    expect(templateVariables(result.data, result.transient)).toEqual({ plan: 'trial', code: '1234' });
  });

  it('does not mutate the stored data', () => {
    const stored = { a: 1 };
    applyDataPatch(stored, { a: null, b: 2 });
    expect(stored).toEqual({ a: 1 });
  });

  it('treats missing stored data as empty and a missing patch as no change', () => {
    expect(applyDataPatch(null, { a: 1 }).data).toEqual({ a: 1 });
    expect(applyDataPatch({ a: 1 }, undefined)).toEqual({ data: { a: 1 }, transient: {}, changedKeys: [] });
  });

  it('compiles a patch into set / unset / transient for set-based SQL', () => {
    expect(compileDataPatch({ a: 1, b: null, c: '', d: { value: 2, persistent: false }, id: 'x' })).toEqual({
      set: { a: 1 },
      unset: ['b'],
      transient: { d: 2 },
    });
  });
});

describe('type inference', () => {
  it.each([
    [42, 'number'],
    [1.5, 'number'],
    [-3, 'number'],
    [true, 'boolean'],
    [false, 'boolean'],
    ['2024-01-31', 'date'],
    ['2024-01-31T10:20:30Z', 'date'],
    ['2024-01-31T10:20:30.123Z', 'date'],
    ['2024-02-30', 'string'],
    ['2024-13-01', 'string'],
    ['2024-01-31T25:00:00Z', 'string'],
    ['2024-01-31T10:20:30+02:00', 'string'],
    ['2024-01-31 10:20:30', 'string'],
    ['31/01/2024', 'string'],
    ['42', 'string'],
    ['true', 'string'],
    ['hello', 'string'],
    [['a'], 'string'],
  ])('%p is %s', (value, type) => {
    expect(inferFieldType(value)).toBe(type);
  });

  it('accepts leap days only in leap years', () => {
    expect(isDateString('2024-02-29')).toBe(true);
    expect(isDateString('2023-02-29')).toBe(false);
  });

  it('types nested objects by dotted leaf paths and skips nulls', () => {
    expect(typedKeys({ plan: 'pro', profile: { tier: 'gold', score: 3, meta: { at: '2024-01-01' } }, gone: null })).toEqual([
      ['plan', 'string'],
      ['profile.tier', 'string'],
      ['profile.score', 'number'],
      ['profile.meta.at', 'date'],
    ]);
  });
});
