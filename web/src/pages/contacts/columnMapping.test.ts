import { describe, expect, it } from 'vitest';
import { initialColumns, keyProblem, previewCsv, suggestKey, toMapping } from './columnMapping';

describe('column mapping step', () => {
  it('reads the header and the first rows, quoted fields and a BOM included', () => {
    const preview = previewCsv('\uFEFFemail,First Name,"Note, long"\r\nada@example.com,Ada,"a, b"\r\n\r\ngrace@example.com,Grace,\r\n')!;
    expect(preview.header).toEqual(['email', 'First Name', 'Note, long']);
    expect(preview.rows).toEqual([
      ['ada@example.com', 'Ada', 'a, b'],
      ['grace@example.com', 'Grace', ''],
    ]);
    expect(previewCsv('')).toBeNull();
    expect(previewCsv(' , \n')).toBeNull();
  });

  it.each([
    ['First Name', 'firstName'],
    [' first  name ', 'firstName'],
    ['plan', 'plan'],
    ['E-mail opt in', 'eMailOptIn'],
    ['Prénom usuel', 'prénomUsuel'],
    ['2fa enabled', '2fa enabled'],
    ['***', '***'],
  ])('suggests a key without spaces for %p', (header, key) => {
    expect(suggestKey(header)).toBe(key);
  });

  it('marks the email column, skips reserved ones, types samples with the server rules', () => {
    const columns = initialColumns(previewCsv('Email,First Name,age,id,subscribed,vip,First Name\na@example.com,,41,7,yes,no,x\nb@example.com,Bo,,,,,\n')!);
    expect(columns.map(({ header, isEmail, key, skip, sampleType }) => ({ header, isEmail, key, skip, sampleType }))).toEqual([
      { header: 'Email', isEmail: true, key: 'email', skip: false, sampleType: 'string' },
      { header: 'First Name', isEmail: false, key: 'firstName', skip: false, sampleType: 'string' },
      { header: 'age', isEmail: false, key: 'age', skip: false, sampleType: 'number' },
      { header: 'id', isEmail: false, key: 'id', skip: true, sampleType: 'number' },
      { header: 'subscribed', isEmail: false, key: 'subscribed', skip: true, sampleType: 'boolean' },
      { header: 'vip', isEmail: false, key: 'vip', skip: false, sampleType: 'boolean' },
    ]);
    expect(toMapping(columns)).toEqual({ 'First Name': 'firstName', age: 'age', id: null, subscribed: null, vip: 'vip' });
  });

  it('names the problems the server would refuse', () => {
    const columns = initialColumns(previewCsv('email,a,b,c\n')!);
    const at = (i: number, key: string) => columns.map((c, j) => (j === i ? { ...c, key } : c));
    const problem = (next: typeof columns, i: number) => keyProblem(next[i], next);
    expect(problem(columns, 1)).toBeUndefined();
    expect(problem(at(1, ''), 1)).toMatch(/name/);
    expect(problem(at(1, 'a.b'), 1)).toMatch(/no dots/);
    expect(problem(at(1, ' a'), 1)).toMatch(/between/);
    expect(problem(at(1, 'Email'), 1)).toMatch(/reserved/);
    expect(problem(at(2, 'a'), 2)).toMatch(/"a" already/);
    expect(problem(at(1, 'x'.repeat(201)), 1)).toMatch(/200/);
    expect(keyProblem({ ...columns[1], key: '', skip: true }, columns)).toBeUndefined();
  });
});
