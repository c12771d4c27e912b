import { empty, Fragment, ident, join, raw, sql } from './sql-fragment';

describe('sql fragments', () => {
  it('turns values into numbered parameters', () => {
    const f = sql`SELECT * FROM t WHERE a = ${1} AND b = ${'x'}`;
    expect(f.text).toBe('SELECT * FROM t WHERE a = $1 AND b = $2');
    expect(f.values).toEqual([1, 'x']);
  });

  it('splices nested fragments and renumbers their parameters', () => {
    const inner = sql`c.age > ${30} AND c.name = ${'ann'}`;
    const outer = sql`c.project_id = ${'p'} AND (${inner}) AND c.x = ${null}`;
    expect(outer.text).toBe('c.project_id = $1 AND (c.age > $2 AND c.name = $3) AND c.x = $4');
    expect(outer.values).toEqual(['p', 30, 'ann', null]);
    const deeper = sql`NOT (${outer}) OR ${inner}`;
    expect(deeper.text).toBe('NOT (c.project_id = $1 AND (c.age > $2 AND c.name = $3) AND c.x = $4) OR c.age > $5 AND c.name = $6');
    expect(deeper.values).toEqual(['p', 30, 'ann', null, 30, 'ann']);
  });

  it('keeps arrays and objects as single parameters', () => {
    const f = sql`a = ANY(${['x', 'y']}::text[]) AND d @> ${{ k: 1 }}`;
    expect(f.values).toEqual([['x', 'y'], { k: 1 }]);
    expect(f.text).toBe('a = ANY($1::text[]) AND d @> $2');
  });

  it('joins fragments, numbers from an offset, and treats raw text as text', () => {
    const parts = [sql`a = ${1}`, raw('b IS NULL'), sql`c = ${3}`];
    const f = join(parts, ' AND ');
    expect(f.text).toBe('a = $1 AND b IS NULL AND c = $2');
    expect(f.toQuery(2)).toEqual({ text: 'a = $3 AND b IS NULL AND c = $4', values: [1, 3] });
    expect(join([], ' OR ')).toBe(empty);
    expect(sql`x${empty}y`.text).toBe('xy');
    expect(ident('we"ird').text).toBe('"we""ird"');
  });

  it('does not treat a dollar in a value as a placeholder', () => {
    const f = sql`a = ${'$1'}`;
    expect(f.text).toBe('a = $1');
    expect(f.values).toEqual(['$1']);
    expect(f).toBeInstanceOf(Fragment);
  });
});
