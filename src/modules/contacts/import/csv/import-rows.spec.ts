import type { CsvRecord } from './csv-file';
import { planColumns } from './csv-values';
import { isEmail } from 'class-validator';
import { ImportBatch, ImportRowReader, isValidEmail } from './import-rows';

function reader(header: string[]) {
  return new ImportRowReader(planColumns(header)!);
}

const rec = (row: number, ...cells: string[]): CsvRecord => ({ row, cells });

describe('ImportRowReader', () => {
  it('types the cells of a row into data, skipping dropped and empty columns', () => {
    const r = reader(['Email', 'First Name', 'age', 'vip', 'joined', 'zip', 'id', 'subscribed', 'note']);
    expect(r.read(rec(2, ' Ann@Example.COM ', 'Ann', '41', 'yes', '2024-05-01', '00501', '17', 'false', ''))).toEqual({
      kind: 'contact',
      row: 2,
      email: 'ann@example.com',
      data: { 'first name': 'Ann', age: 41, vip: true, joined: '2024-05-01', zip: '00501' },
      types: [
        ['first name', 'string'],
        ['age', 'number'],
        ['vip', 'boolean'],
        ['joined', 'date'],
        ['zip', 'string'],
      ],
      duplicate: false,
    });
  });

  it('reports a missing email', () => {
    const r = reader(['email', 'name']);
    expect(r.read(rec(3, '', 'Bob'))).toEqual({ kind: 'skip', error: { row: 3, email: '', reason: 'missing_email' } });
    expect(r.read(rec(4, '   ', 'Bob'))).toEqual({ kind: 'skip', error: { row: 4, email: '', reason: 'missing_email' } });
  });

  it('reports a short row without the email cell as missing_email', () => {
    const r = reader(['name', 'email']);
    expect(r.read(rec(2, 'Bob'))).toEqual({ kind: 'skip', error: { row: 2, email: '', reason: 'missing_email' } });
  });

  it.each(['not-an-email', 'a@b', 'a b@example.com', '@example.com', 'a@example.com\r\nBcc: x@y.z'])('reports %p as invalid_email', (email) => {
    const r = reader(['email']);
    expect(r.read(rec(2, email))).toEqual({ kind: 'skip', error: { row: 2, email: email.trim(), reason: 'invalid_email' } });
  });

  it('marks a repeated email (any case) as a duplicate', () => {
    const r = reader(['email', 'n']);
    expect(r.read(rec(2, 'a@example.com', '1'))).toMatchObject({ duplicate: false });
    expect(r.read(rec(3, 'A@EXAMPLE.com', '2'))).toMatchObject({ duplicate: true, email: 'a@example.com' });
  });

  it('treats a record of empty cells as blank', () => {
    const r = reader(['email', 'n']);
    expect(r.read(rec(2, ''))).toEqual({ kind: 'blank' });
    expect(r.read(rec(3, ' ', ''))).toEqual({ kind: 'blank' });
  });

  it('lets the later of two columns with the same key win when it has a value', () => {
    const r = reader(['email', 'Plan', 'plan']);
    expect(r.read(rec(2, 'a@example.com', 'free', 'pro'))).toMatchObject({ data: { plan: 'pro' } });
    expect(r.read(rec(3, 'b@example.com', 'free', ''))).toMatchObject({ data: { plan: 'free' } });
  });
});

describe('ImportBatch', () => {
  function fill(header: string[], rows: string[][]) {
    const r = reader(header);
    const batch = new ImportBatch();
    rows.forEach((cells, i) => {
      const record = rec(i + 2, ...cells);
      batch.add(record, r.read(record));
    });
    return batch;
  }

  it('merges a repeated email into the earlier row, later cells winning, and reports it', () => {
    const batch = fill(
      ['email', 'plan', 'age'],
      [
        ['a@example.com', 'free', '30'],
        ['b@example.com', 'pro', ''],
        ['A@example.com', 'pro', ''],
      ],
    );
    expect([...batch.contacts.values()]).toEqual([
      { email: 'a@example.com', data: { plan: 'pro', age: 30 } },
      { email: 'b@example.com', data: { plan: 'pro' } },
    ]);
    expect(batch.errors).toEqual([{ row: 4, email: 'a@example.com', reason: 'duplicate_in_file' }]);
    expect(batch.contactRows).toBe(3);
    expect(batch.skipped).toBe(0);
    expect(batch.rows).toBe(3);
  });

  it('counts skipped rows, ignores blank records for counts but advances the cursor', () => {
    const batch = fill(['email'], [['x'], [''], ['ok@example.com'], ['']]);
    expect(batch.rows).toBe(2);
    expect(batch.skipped).toBe(1);
    expect(batch.contactRows).toBe(1);
    expect(batch.lastRow).toBe(5);
    expect(batch.errors).toEqual([{ row: 2, email: 'x', reason: 'invalid_email' }]);
  });

  it('keeps the first type seen for each key', () => {
    const batch = fill(
      ['email', 'code'],
      [
        ['a@example.com', '12'],
        ['b@example.com', 'abc'],
      ],
    );
    expect([...batch.fieldTypes]).toEqual([['code', 'number']]);
  });

  it('does not share data objects between a pending contact and the row outcome', () => {
    const r = reader(['email', 'plan']);
    const batch = new ImportBatch();
    const first = r.read(rec(2, 'a@example.com', 'free'));
    batch.add(rec(2), first);
    batch.add(rec(3), r.read(rec(3, 'a@example.com', 'pro')));
    expect(first).toMatchObject({ data: { plan: 'free' } });
  });
});

describe('isValidEmail', () => {
  const samples = [
    'a@example.com',
    'first.last@sub.example.co.uk',
    'x+tag@example.io',
    'under_score%pct@example.com',
    'a-b@a-b.example',
    'a@b.c',
    'a@b',
    '.a@example.com',
    'a.@example.com',
    'a..b@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@example..com',
    'a@example.c0m',
    'a@123.com',
    'a@example.123',
    `${'l'.repeat(64)}@example.com`,
    `${'l'.repeat(65)}@example.com`,
    `a@${'d'.repeat(63)}.com`,
    `a@${'d'.repeat(64)}.com`,
    `a@${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`,
    'a b@example.com',
    'a@exa mple.com',
    '"quoted"@example.com',
    "o'brien@example.com",
    'a@[127.0.0.1]',
    'ünï@example.com',
    'a@exämple.com',
    'a@xn--exmple-cua.com',
    'a@localhost',
    '',
    '@',
    'a@',
    '@example.com',
  ];

  it.each(samples)('agrees with class-validator isEmail on %p', (email) => {
    expect(isValidEmail(email)).toBe(isEmail(email));
  });
});

describe('isValidEmail fast path', () => {
  it('never accepts what isEmail rejects (seeded random addresses)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pool = 'abz09._%+-@';
    const pick = (len: number) => Array.from({ length: len }, () => pool[rand(pool.length)]).join('');
    for (let i = 0; i < 5000; i++) {
      const email = `${pick(1 + rand(12))}@${pick(1 + rand(10))}.${'abcdefgh'.slice(0, 1 + rand(8))}`;
      expect([email, isValidEmail(email)]).toEqual([email, isEmail(email)]);
    }
  });
});
