import { parseSendRequest, recipientVariables, SEND_REQUEST_SCHEMA } from './send-request';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const fields = (body: unknown) => {
  const out = parseSendRequest(body);
  return out.errors.map((e) => `${e.field}:${e.code}`);
};

describe('parseSendRequest', () => {
  it('normalizes every recipient form and drops duplicates', () => {
    const out = parseSendRequest({ to: ['A@X.com', { name: ' Bee ', email: 'b@x.com' }, 'a@x.com'], subject: 's', body: 'b', from: 'Acme <Hi@Acme.test>' });
    expect(out.errors).toEqual([]);
    expect(out.request!.to).toEqual([
      { email: 'a@x.com', name: null },
      { email: 'b@x.com', name: 'Bee' },
    ]);
    expect(out.request!.from).toEqual({ email: 'hi@acme.test', name: 'Acme' });
    expect(parseSendRequest({ to: { email: 'c@x.com' } }).request!.to).toEqual([{ email: 'c@x.com', name: null }]);
  });

  it('reports one item per problem', () => {
    expect(fields({ to: 'x@y.io', subject: 'a\nb' })).toEqual(['subject:invalid_string']);
    expect(fields({ to: 'x@y.io', body: '' })).toEqual(['body:too_small']);
    expect(fields({ to: 'x@y.io', subject: '' })).toEqual(['subject:too_small']);
    expect(fields({ to: 'x@y.io', subject: 'x'.repeat(999) })).toEqual(['subject:too_big']);
    // U+0000 cannot be stored (PostgreSQL text/jsonb) nor sent: 422, never a database error.
    expect(fields({ to: 'x@y.io', subject: 'a\u0000b', body: '<p>\u0000</p>' })).toEqual(['subject:invalid_string', 'body:invalid_string']);
    expect(fields({ to: ['ok@y.io', 'bad', { email: 'also-bad' }] })).toEqual(['to[1]:invalid_string', 'to[2].email:invalid_string']);
    expect(fields({})).toEqual(['to:required']);
    expect(fields({ to: 'x@y.io', template: 'nope', reply: 'nope', subscribed: 'yes', data: [1], tracking: 1 })).toEqual([
      'template:invalid_string',
      'reply:invalid_string',
      'data:invalid_type',
      'subscribed:invalid_type',
      'tracking:invalid_type',
    ]);
  });

  it('checks custom headers', () => {
    expect(fields({ to: 'x@y.io', headers: { 'X-A\r\nBcc': 'v' } })).toEqual(['headers.X-A\\r\\nBcc:invalid_string']);
    expect(fields({ to: 'x@y.io', headers: { 'X-A': 'a\r\nb' } })).toEqual(['headers.X-A:invalid_string']);
    expect(fields({ to: 'x@y.io', headers: { 'X-A': 'a\u0000b' } })).toEqual(['headers.X-A:invalid_string']);
    expect(fields({ to: 'x@y.io', headers: { 'X-A': 'v'.repeat(999) } })).toEqual(['headers.X-A:too_big']);
    expect(fields({ to: 'x@y.io', headers: { From: 'evil@x.com' } })).toEqual(['headers.From:reserved_header']);
    expect(parseSendRequest({ to: 'x@y.io', headers: { 'X-Num': 5, 'reply-to': 'r@x.com' } }).request!.headers).toEqual({ 'X-Num': '5', 'reply-to': 'r@x.com' });
  });

  it('checks attachments', () => {
    const one = { filename: 'a.txt', content: b64('hi'), contentType: 'text/plain' };
    expect(fields({ to: 'x@y.io', attachments: Array(11).fill(one) })).toEqual(['attachments:too_big']);
    expect(fields({ to: 'x@y.io', attachments: [{ ...one, content: 'not base64!' }] })).toEqual(['attachments[0].content:invalid_base64']);
    expect(fields({ to: 'x@y.io', attachments: [{ ...one, disposition: 'inline' }] })).toEqual(['attachments[0].contentId:required']);
    expect(fields({ to: 'x@y.io', attachments: [{ ...one, filename: 'a\r\n.txt' }] })).toEqual(['attachments[0].filename:invalid_string']);
    const big = Buffer.alloc(6 * 1024 * 1024).toString('base64');
    expect(fields({ to: 'x@y.io', attachments: [{ ...one, content: big }, { ...one, content: big }] })).toEqual(['attachments:too_big']);
    const ok = parseSendRequest({ to: 'x@y.io', attachments: [{ ...one, content: `${b64('hello')}\n`, disposition: 'inline', contentId: 'logo' }] });
    expect(ok.request!.attachments).toEqual([{ filename: 'a.txt', content: b64('hello'), contentType: 'text/plain', contentId: 'logo', disposition: 'inline' }]);
    expect(ok.request!.attachmentBytes).toBe(5);
  });

  it('reads the body type: html or markdown, nothing else', () => {
    expect(parseSendRequest({ to: 'x@y.io', type: 'markdown' }).request!.type).toBe('markdown');
    expect(parseSendRequest({ to: 'x@y.io', type: 'html' }).request!.type).toBe('html');
    expect(parseSendRequest({ to: 'x@y.io' }).request!.type).toBeUndefined();
    expect(fields({ to: 'x@y.io', type: 'Markdown' })).toEqual(['type:invalid_enum_value']);
    expect(fields({ to: 'x@y.io', type: ['markdown'] })).toEqual(['type:invalid_type']);
  });
});

describe('recipientVariables', () => {
  const req = (data?: Record<string, unknown>) => parseSendRequest({ to: 'x@y.io', data }).request!;
  const john = { email: 'john@y.io', name: 'John Smith' };

  it("adds the recipient's name over a stored one; a name in the request's data wins", () => {
    expect(recipientVariables(req(), john, { plan: 'pro', name: 'stored' })).toEqual({ plan: 'pro', name: 'John Smith' });
    expect(recipientVariables(req({ name: 'Johnny' }), john, { name: 'Johnny' })).toEqual({ name: 'Johnny' });
    expect(recipientVariables(req({ name: { value: 'J.', persistent: false } }), john, { name: 'J.' })).toEqual({ name: 'J.' });
    expect(recipientVariables(req({ name: null }), john, {})).toEqual({ name: 'John Smith' });
    expect(recipientVariables(req(), { email: 'anon@y.io', name: null }, { name: 'stored' })).toEqual({ name: 'stored' });
  });
});

/** The OpenAPI body is written beside the parser; these hold the two to the same fields. */
describe('SEND_REQUEST_SCHEMA', () => {
  const properties = SEND_REQUEST_SCHEMA.properties as Record<string, { type?: string }>;

  it('documents exactly the fields the parser reads', () => {
    const read = new Set<string>();
    const spy = new Proxy({ to: 'x@y.io' } as Record<string, unknown>, {
      get: (target, key) => {
        if (typeof key === 'string') read.add(key);
        return Reflect.get(target, key);
      },
    });
    expect(parseSendRequest(spy).errors).toEqual([]);
    expect([...read].sort()).toEqual(Object.keys(properties).sort());
  });

  it('every documented field is checked: a value of the wrong type is a 422 item naming it', () => {
    const wrong = (type: string | undefined): unknown => (type === 'boolean' ? 'yes' : type === 'object' || type === 'array' ? 'x' : 42);
    for (const [field, schema] of Object.entries(properties)) {
      const out = parseSendRequest({ to: 'x@y.io', [field]: wrong(schema.type) });
      expect({ field, errors: out.errors.map((e) => e.field) }).toEqual({ field, errors: [field] });
    }
  });

  it('requires what the parser requires', () => {
    expect(SEND_REQUEST_SCHEMA.required).toEqual(['to']);
    expect(fields({})).toEqual(['to:required']);
  });
});
