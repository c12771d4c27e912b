import { headerToKey, planColumns, typeCell } from './csv-values';

describe('typeCell', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['yes', true],
    ['YES', true],
    ['Yes', true],
    ['false', false],
    ['FALSE', false],
    ['no', false],
    ['No', false],
    [' yes ', true],
  ])('types %p as boolean %p', (raw, value) => {
    expect(typeCell(raw)).toEqual({ value, type: 'boolean' });
  });

  it.each(['y', 'n', 't', 'f', '1 ', 'on', 'off', 'yes!', 'truee'])('keeps %p out of booleans', (raw) => {
    expect(typeCell(raw)?.type).not.toBe('boolean');
  });

  it.each([
    ['0', 0],
    ['42', 42],
    ['-7', -7],
    ['3.14', 3.14],
    ['-0.5', -0.5],
    ['0.001', 0.001],
    ['10.50', 10.5],
    ['123456789012345', 123456789012345],
    [' 12 ', 12],
  ])('types %p as number %p', (raw, value) => {
    expect(typeCell(raw)).toEqual({ value, type: 'number' });
  });

  it.each([
    ['leading zero', '007'],
    ['leading zero decimal', '01.5'],
    ['negative leading zero', '-012'],
    ['plus sign', '+42'],
    ['plus sign decimal', '+1.5'],
    ['exponent', '1e5'],
    ['upper exponent', '2E10'],
    ['decimal exponent', '1.5e-3'],
    ['trailing dot', '5.'],
    ['leading dot', '.5'],
    ['thousands separator', '1,000'],
    ['hex', '0x1F'],
    ['infinity', 'Infinity'],
    ['nan', 'NaN'],
    ['phone', '+1 555 0100'],
    ['too many digits', '1234567890123456789'],
    ['too many decimal digits', '0.12345678901234567'],
    ['compact date', '2024-1-5'],
  ])('keeps %s (%p) a string', (_, raw) => {
    expect(typeCell(raw)).toEqual({ value: raw, type: 'string' });
  });

  it.each([
    ['2024-01-31', '2024-01-31'],
    ['2024-02-29', '2024-02-29'],
    ['2024-01-31T10:20:30Z', '2024-01-31T10:20:30.000Z'],
    ['2024-01-31T10:20:30.123Z', '2024-01-31T10:20:30.123Z'],
    ['2024-01-31T10:20:30.1Z', '2024-01-31T10:20:30.100Z'],
    ['2024-01-31T10:20:30.123456Z', '2024-01-31T10:20:30.123Z'],
    ['2024-01-31T10:20Z', '2024-01-31T10:20:00.000Z'],
    ['2024-01-31T10:20:30', '2024-01-31T10:20:30.000Z'],
    ['2024-01-31T10:20:30+02:00', '2024-01-31T08:20:30.000Z'],
    ['2024-01-31T01:00:00-0130', '2024-01-31T02:30:00.000Z'],
    ['2024-01-01T00:30:00+01', '2023-12-31T23:30:00.000Z'],
  ])('types %p as date %p', (raw, value) => {
    expect(typeCell(raw)).toEqual({ value, type: 'date' });
  });

  it.each(['2023-02-29', '2024-13-01', '2024-00-10', '2024-01-32', '2024-01-31T24:00:00Z', '2024-01-31T10:60:00Z', '2024-01-31 10:00:00', '31/01/2024', '2024/01/31', '2024-1-5'])(
    'keeps %p a string',
    (raw) => {
      expect(typeCell(raw)).toEqual({ value: raw, type: 'string' });
    },
  );

  it('trims strings and ignores empty cells', () => {
    expect(typeCell('  Alice  ')).toEqual({ value: 'Alice', type: 'string' });
    expect(typeCell('')).toBeUndefined();
    expect(typeCell('   ')).toBeUndefined();
  });

  it('keeps inner text as given', () => {
    expect(typeCell('hi, "there"\nline')).toEqual({ value: 'hi, "there"\nline', type: 'string' });
    expect(typeCell('Zoë 🚀')).toEqual({ value: 'Zoë 🚀', type: 'string' });
  });
});

describe('headerToKey', () => {
  it.each([
    ['First Name', 'first name'],
    ['  Plan  ', 'plan'],
    ['Company   Size', 'company size'],
    ['\uFEFFemail', 'email'],
    ['EMAIL', 'email'],
    ['profile.tier', 'profile.tier'],
  ])('maps %p to %p', (header, key) => {
    expect(headerToKey(header)).toBe(key);
  });
});

describe('planColumns', () => {
  it('finds the email column case-insensitively and keeps the others as data keys', () => {
    expect(planColumns(['Name', ' Email ', 'First Name'])).toEqual({
      emailIndex: 1,
      columns: [
        { index: 0, key: 'name' },
        { index: 2, key: 'first name' },
      ],
    });
  });

  it('returns null without an email column', () => {
    expect(planColumns(['name', 'e-mail', 'mail'])).toBeNull();
    expect(planColumns([])).toBeNull();
  });

  it('drops id, subscribed, createdAt, updatedAt, URL variables, reserved keys, extra email columns and unnamed columns', () => {
    const plan = planColumns([
      'email',
      'id',
      'ID',
      'subscribed',
      'createdAt',
      'updatedAt',
      'unsubscribeUrl',
      'subscribeUrl',
      'manageUrl',
      'plunk_id',
      'plunk_email',
      'Email',
      '',
      '  ',
      'plan',
    ]);
    expect(plan).toEqual({ emailIndex: 0, columns: [{ index: 14, key: 'plan' }] });
  });
});
