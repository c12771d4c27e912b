import { literal, StatementRunner } from './statement-runner';

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

describe('StatementRunner on the embedded database', () => {
  it('answers a caller inside a transaction on its own connection while a question asked on the pool is held', async () => {
    // The pool's connection is held behind the caller's transaction (one PGlite session).
    const pool = { query: jest.fn(() => new Promise(() => undefined)) };
    const transaction = {
      query: jest.fn(async (sql: string) => (sql.startsWith('SHOW') ? [{ standard_conforming_strings: 'on' }] : sql.startsWith('EXECUTE') ? [{ n: 1 }] : [])),
    };
    const runner = new StatementRunner(pool as never, true);
    void runner.run('SELECT 1 AS n', []);
    await new Promise((r) => setImmediate(r));
    const answered = await Promise.race([
      runner.run('SELECT $1::int AS n', [1], transaction as never),
      new Promise((r) => setTimeout(() => r('held'), 200)),
    ]);
    expect(answered).toEqual([{ n: 1 }]);
    expect(transaction.query.mock.calls.map(([sql]) => String(sql).split(' ')[0])).toEqual(['SHOW', 'PREPARE', 'EXECUTE']);
  });

  it('runs a call whose values hold a NUL with bind parameters, unprepared, so the database answers it', async () => {
    const db = { query: jest.fn(async (sql: string) => (sql.startsWith('SHOW') ? [{ standard_conforming_strings: 'on' }] : [{ n: 1 }])) };
    const runner = new StatementRunner(db as never, true);
    await runner.run('SELECT $1::text AS n', ['a\u0000b']);
    await runner.run('SELECT $1::text[] AS n', [['ok', 'a\u0000b']]);
    expect(db.query.mock.calls.slice(1)).toEqual([
      ['SELECT $1::text AS n', ['a\u0000b']],
      ['SELECT $1::text[] AS n', [['ok', 'a\u0000b']]],
    ]);
  });
});
