import { z } from 'zod';
import { absent, coded, declaredComponents, issue, openApiModelOf, openApiSchemaOf, parseDeclared, unknownKey } from './declared-body';

const address = z.union([z.string().meta({ format: 'email' }), z.object({ email: z.string(), name: absent(z.string()) })], {
  error: coded('invalid_type', '{field} must be an address or {email, name}'),
});
const body = z.object({
  to: z.array(address).superRefine((list, ctx) => {
    if (list.length > 2) issue(ctx, [], 'too_big', '{field} holds at most 2', list);
  }),
  note: absent(z.string().max(3, { message: '{field} is long' }).refine((v) => !v.includes('!'), { message: '{field} shouts', params: { code: 'invalid_string' } })),
});

describe('declared bodies', () => {
  it('reports one item per field, with its path, code and received value', () => {
    const out = parseDeclared(body, { to: ['a@x', { name: 'n' }, 5], note: 'loud!' });
    expect(out.errors).toEqual([
      { field: 'to[1].email', code: 'required', message: 'Invalid input: expected string, received undefined' },
      { field: 'to[2]', code: 'invalid_type', message: 'to[2] must be an address or {email, name}', received: 5 },
      { field: 'note', code: 'too_big', message: 'note is long', received: 'loud!' },
    ]);
  });

  it('takes null as not given for absent() fields and names misspelt fields', () => {
    expect(parseDeclared(body, { to: [], note: null }).value).toEqual({ to: [], note: null });
    expect(parseDeclared(body, { to: [], notes: 'x' }, { nearMisses: { notes: 'note' } }).errors).toEqual([
      { field: 'notes', code: 'unrecognized_keys', message: 'unknown field notes: did you mean note?', received: 'notes' },
    ]);
  });

  it('writes the OpenAPI schema of the input: unions as oneOf, absent fields not nullable', () => {
    const schema = openApiSchemaOf(body) as Record<string, unknown>;
    expect(schema).toEqual({
      type: 'object',
      required: ['to'],
      properties: {
        to: { type: 'array', items: { oneOf: [{ type: 'string', format: 'email' }, { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' } }, required: ['email'] }] } },
        note: { type: 'string', maxLength: 3 },
      },
    });
  });

  it('names items from the field the input stands for, and each undeclared key of a closed object', () => {
    const closed = z.object({ a: z.string() }).catchall(unknownKey('unknown_property', 'is not a property'));
    expect(parseDeclared(closed, { a: 1, b: 2, c: 3 }, { at: 'part' }).errors).toEqual([
      { field: 'part.a', code: 'invalid_type', message: 'Invalid input: expected string, received number', received: 1 },
      { field: 'part.b', code: 'unknown_property', message: 'is not a property' },
      { field: 'part.c', code: 'unknown_property', message: 'is not a property' },
    ]);
    expect(openApiSchemaOf(closed)).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
  });

  it('documents a recursive declaration as named components behind a handle', () => {
    const node = z.object({ name: z.string(), get children() { return z.array(node).optional(); } }).meta({ id: 'SpecNode' });
    const Handle = openApiModelOf(z.preprocess((v) => v, node));
    expect(Handle.name).toBe('SpecNode');
    expect(declaredComponents().SpecNode).toEqual({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/SpecNode' } } }, required: ['name'] });
  });

  it('refuses each undeclared key at the key, and refers to a named schema as its component', () => {
    const window = z.object({ from: z.int() }).catchall(unknownKey('unknown_field', 'no field {key} in {field}', { received: true })).meta({ id: 'SpecWindow' });
    const settings = z.object({ window: absent(window), size: z.int().min(1) });
    expect(parseDeclared(settings, { window: { from: 1, a: 2, b: 'x' }, size: 1 }).errors).toEqual([
      { field: 'window.a', code: 'unknown_field', message: 'no field a in window.a', received: 2 },
      { field: 'window.b', code: 'unknown_field', message: 'no field b in window.b', received: 'x' },
    ]);
    expect(openApiSchemaOf(settings)).toEqual({
      type: 'object',
      properties: { window: { $ref: '#/components/schemas/SpecWindow' }, size: { type: 'integer', minimum: 1 } },
      required: ['size'],
    });
    expect(declaredComponents().SpecWindow).toEqual({ type: 'object', properties: { from: { type: 'integer' } }, required: ['from'], additionalProperties: false });
  });
});
