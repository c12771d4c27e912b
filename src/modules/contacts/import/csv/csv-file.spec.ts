import { countDataRecords, csvRecordChunks, csvRecords, decodeCsv, detectNewline, inspectCsv, readHeader } from './csv-file';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

async function collect(text: string, chunkChars?: number) {
  const rows = [];
  for await (const record of csvRecords(text, chunkChars)) rows.push(record);
  return rows;
}

describe('inspectCsv', () => {
  it('accepts a header with an email column', () => {
    const result = inspectCsv(bytes('email,name\na@example.com,A\n'));
    expect(result).toEqual({ ok: true, header: ['email', 'name'], plan: { emailIndex: 0, columns: [{ index: 1, key: 'name' }] } });
  });

  it('accepts a UTF-8 BOM', () => {
    const result = inspectCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('Email,Plan\r\n')]));
    expect(result.ok).toBe(true);
  });

  it('accepts a header-only file', () => {
    expect(inspectCsv(bytes('email')).ok).toBe(true);
  });

  it.each([
    ['empty', new Uint8Array(), 'empty'],
    ['NUL bytes', new Uint8Array([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x00, 0x0a]), 'binary'],
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'binary'],
    ['invalid UTF-8', new Uint8Array([...bytes('email,name\na@example.com,'), 0xff, 0xfe, 0x0a]), 'encoding'],
    ['Latin-1 text', new Uint8Array([...bytes('email,name\na@example.com,Ren'), 0xe9, 0x0a]), 'encoding'],
    ['blank header', bytes('\n\nemail\n'), 'no_header'],
    ['no email column', bytes('name,plan\nA,pro\n'), 'no_email_column'],
    ['semicolon-separated', bytes('email;name\na@example.com;A\n'), 'no_email_column'],
  ])('rejects %s', (_, input, reason) => {
    expect(inspectCsv(input)).toEqual({ ok: false, reason });
  });
});

describe('decodeCsv', () => {
  it('strips the BOM and keeps multi-byte characters', () => {
    expect(decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('email,ñ')]))).toBe('email,ñ');
  });

  it('throws on invalid UTF-8', () => {
    expect(() => decodeCsv(new Uint8Array([0xc3, 0x28]))).toThrow();
  });
});

describe('detectNewline', () => {
  it.each([
    ['a\nb', '\n'],
    ['a\r\nb\r\n', '\r\n'],
    ['a\rb\r', '\r'],
    ['a\rb\nc', '\r'],
    ['single line', '\n'],
    ['\n\nemail\n', '\n'],
    ['a\nb\r\n', '\n'],
  ])('detects the line ending of %p', (text, newline) => {
    expect(detectNewline(text)).toBe(newline);
  });
});

describe('readHeader', () => {
  it('reads only the first record, including quoted headers', () => {
    expect(readHeader('"email","First, Name"\nx,y\n')).toEqual(['email', 'First, Name']);
  });
});

describe('csvRecords', () => {
  it('numbers records from the header as row 1', async () => {
    const rows = await collect('email,name\na@example.com,A\nb@example.com,B\n');
    expect(rows).toEqual([
      { row: 1, cells: ['email', 'name'] },
      { row: 2, cells: ['a@example.com', 'A'] },
      { row: 3, cells: ['b@example.com', 'B'] },
    ]);
  });

  it('handles quoted fields with commas, quotes and line breaks without adding rows', async () => {
    const rows = await collect('email,note\r\na@example.com,"one, two"\r\nb@example.com,"line 1\r\nline 2 ""quoted"""\r\nc@example.com,x\r\n');
    expect(rows.map((r) => r.cells)).toEqual([
      ['email', 'note'],
      ['a@example.com', 'one, two'],
      ['b@example.com', 'line 1\r\nline 2 "quoted"'],
      ['c@example.com', 'x'],
    ]);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
  });

  it('reads CRLF files without stray carriage returns and keeps blank records as rows', async () => {
    const rows = await collect('email,name\r\na@example.com,A\r\n\r\nb@example.com,B');
    expect(rows).toEqual([
      { row: 1, cells: ['email', 'name'] },
      { row: 2, cells: ['a@example.com', 'A'] },
      { row: 3, cells: [''] },
      { row: 4, cells: ['b@example.com', 'B'] },
    ]);
  });

  it.each([undefined, 1024, 97, 7])('streams large inputs across chunk boundaries (chunks of %p characters) intact', async (chunkChars) => {
    const lines = ['email,name,bio'];
    for (let i = 0; i < 5000; i++) lines.push(`user${i}@example.com,Zoë ${i},"multi\nline ${'x'.repeat(i % 50)}, with comma"`);
    const rows = await collect(lines.join('\n') + '\n', chunkChars);
    expect(rows).toHaveLength(5001);
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 5001 }, (_, i) => i + 1));
    expect(rows[4321]).toEqual({ row: 4322, cells: ['user4320@example.com', 'Zoë 4320', `multi\nline ${'x'.repeat(4320 % 50)}, with comma`] });
    expect(rows[5000].cells[0]).toBe('user4999@example.com');
  });

  it('yields nothing for an empty text and one record for a text without line breaks', async () => {
    expect(await collect('')).toEqual([]);
    expect(await collect('email')).toEqual([{ row: 1, cells: ['email'] }]);
  });

  it('pauses between chunks until the consumer asks for more', async () => {
    const text = 'email\n' + Array.from({ length: 100 }, (_, i) => `u${i}@example.com`).join('\n');
    const chunks = csvRecordChunks(text, 64);
    const first = await chunks.next();
    expect(first.done).toBe(false);
    expect(first.value!.length).toBeLessThan(101);
    let total = first.value!.length;
    for await (const records of chunks) total += records.length;
    expect(total).toBe(101);
  });
});

describe('countDataRecords', () => {
  it.each([
    ['email\n', 0],
    ['email', 0],
    ['', 0],
    ['email,n\na@example.com,1\n\n,\nbad,2\n', 2],
    ['email,note\r\na@example.com,"x\r\ny"\r\nb@example.com,z', 2],
  ])('counts the data rows of %p', (text, count) => {
    expect(countDataRecords(text)).toBe(count);
  });
});
