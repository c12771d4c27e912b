import { literal } from './statement-runner';

describe('statement literals', () => {
  it.each([
    [null, 'NULL'],
    [undefined, 'NULL'],
    [true, 'true'],
    [false, 'false'],
    ['plain', "'plain'"],
    ["o'brien@example.com", "'o''brien@example.com'"],
    ["'); DROP TABLE contacts; --", "'''); DROP TABLE contacts; --'"],
    ['back\\slash', "'back\\slash'"],
    ['{"a":"it\'s"}', `'{"a":"it''s"}'`],
    [[], "'{}'"],
    [['a', "b'c"], `'{"a","b''c"}'`],
    [['say "hi"', 'back\\slash', 'x,y', '{z}'], `'{"say \\"hi\\"","back\\\\slash","x,y","{z}"}'`],
    [new Date('2026-11-23T18:07:45.396Z'), "'2026-11-23T18:07:45.396Z'"],
  ])('%p → %s', (value, expected) => expect(literal(value)).toBe(expected));

  it('refuses NUL characters and unsupported types', () => {
    expect(() => literal('a\u0000b')).toThrow();
    expect(literal(5)).toBe('5');
    expect(literal(-1.5)).toBe('-1.5');
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal({})).toThrow();
    expect(() => literal(new Date(Number.NaN))).toThrow();
  });
});
