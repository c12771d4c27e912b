import { inspectInput, MAX_INPUT_DEPTH } from './input-guard';

describe('inspectInput', () => {
  const deep = (n: number): unknown => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);

  it('accepts ordinary JSON, paired surrogates and NUL in values', () => {
    expect(inspectInput({ a: [1, 'x', { b: null }], emoji: '😀', nul: 'a\u0000b' })).toBeUndefined();
    expect(inspectInput(deep(MAX_INPUT_DEPTH - 1))).toBeUndefined();
  });

  it('refuses nesting past the limit without recursing, naming the top-level field', () => {
    expect(inspectInput(deep(10_000))).toMatchObject({ field: 'a', code: 'too_deep' });
    expect(inspectInput(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toMatchObject({ field: 'body', code: 'too_deep' });
  });

  it('refuses unpaired surrogates in values and keys, and NUL in keys, naming the field', () => {
    expect(inspectInput({ to: [{ email: 'a\ud800@example.com' }] })).toMatchObject({ field: 'to[0].email', code: 'invalid_string' });
    expect(inspectInput({ subject: 'x\udc00' })).toMatchObject({ field: 'subject' });
    expect(inspectInput({ data: { ['k\ud800']: 1 } })).toMatchObject({ field: 'data.k\ufffd' });
    expect(inspectInput({ data: { ['a\u0000b']: 1 } })).toMatchObject({ field: 'data.a\ufffdb' });
  });
});
