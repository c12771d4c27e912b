import { AppError } from '../../../../platform/http/app-error';
import { resolveColumnMapping } from './column-mapping';
import { planColumns } from './csv-values';

const HEADER = ['\uFEFFemail', ' First Name ', 'Last Name', 'plan', 'Notes'];

function itemsOf(raw: string, header = HEADER): Array<{ field: string; code: string }> {
  try {
    resolveColumnMapping(header, raw);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(422);
    return ((err as AppError).extra.errors ?? []).map(({ field, code }) => ({ field, code }));
  }
  throw new Error('expected a 422');
}

describe('resolveColumnMapping', () => {
  it('is null without a mapping part (the spec import)', () => {
    expect(resolveColumnMapping(HEADER, undefined)).toBeNull();
    expect(resolveColumnMapping(HEADER, '')).toBeNull();
  });

  it('accepts keys, null to skip, and names headers as written without surrounding spaces', () => {
    const mapping = resolveColumnMapping(HEADER, JSON.stringify({ 'First Name': 'firstName', Notes: null, plan: 'plan tier' }));
    expect(mapping).toEqual({ 'First Name': 'firstName', Notes: null, plan: 'plan tier' });
    expect(planColumns(HEADER, mapping)).toEqual({
      emailIndex: 0,
      columns: [
        { index: 1, key: 'firstName' },
        { index: 2, key: 'last name' },
        { index: 3, key: 'plan tier' },
      ],
    });
  });

  it('lets a dropped column (id) be kept under a key of its own', () => {
    const header = ['email', 'id'];
    expect(planColumns(header, resolveColumnMapping(header, '{"id":"legacyId"}'))?.columns).toEqual([{ index: 1, key: 'legacyId' }]);
  });

  it.each([
    ['not JSON', '{first', 'mapping', 'invalid_json'],
    ['an array', '["a"]', 'mapping', 'invalid_type'],
    ['a string', '"a"', 'mapping', 'invalid_type'],
    ['an unknown column', '{"Nope":"x"}', 'mapping.Nope', 'unknown_column'],
    ['the email column', '{"email":"mail"}', 'mapping.email', 'email_column'],
    ['an empty key', '{"plan":""}', 'mapping.plan', 'too_small'],
    ['a blank key', '{"plan":"  "}', 'mapping.plan', 'too_small'],
    ['a number', '{"plan":3}', 'mapping.plan', 'invalid_type'],
    ['a dotted key', '{"plan":"a.b"}', 'mapping.plan', 'invalid_string'],
    ['spaces around', '{"plan":" tier"}', 'mapping.plan', 'invalid_string'],
    ['a brace', '{"plan":"{{x}}"}', 'mapping.plan', 'invalid_string'],
    ['a reserved key', '{"plan":"Subscribed"}', 'mapping.plan', 'reserved_key'],
    ['an over-long key', JSON.stringify({ plan: 'k'.repeat(201) }), 'mapping.plan', 'too_big'],
  ])('refuses %s', (_, raw, field, code) => {
    expect(itemsOf(raw)).toEqual([{ field, code }]);
  });

  it('refuses two columns mapped to one key, and a mapped key equal to another column\'s derived key', () => {
    expect(itemsOf('{"First Name":"name","Last Name":"name"}')).toEqual([{ field: 'mapping.Last Name', code: 'duplicate_key' }]);
    expect(itemsOf('{"Notes":"plan"}')).toEqual([{ field: 'mapping.Notes', code: 'duplicate_key' }]);
    // Skipping the column that held the key frees it.
    expect(resolveColumnMapping(HEADER, '{"Notes":"plan","plan":null}')).toEqual({ Notes: 'plan', plan: null });
  });

  it('leaves duplicate headers without a mapping to the spec rule (both kept)', () => {
    expect(resolveColumnMapping(['email', 'a', 'A'], '{}')).toEqual({});
  });
});
