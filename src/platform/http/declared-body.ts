import { Injectable, PipeTransform, Type } from '@nestjs/common';
import { z } from 'zod';
import { FieldError, validationError } from './app-error';
import type { SchemaObject } from './openapi-responses';
import { nearMissErrors, summarize } from './validation';

/**
 * The one adapter between a zod-declared body (for bodies whose unions class-validator DTOs cannot
 * express) and the service's contracts: its issues become the 422 envelope's items, one per field
 * (the first problem found), and its input side becomes the OpenAPI schema.
 *
 * Declarations follow four conventions: a message may say `{field}`, replaced by the field's
 * path (`to[1].email`); a custom issue names its envelope code in `params.code` (and may give
 * `params.received`, and `params.alone` when its members are not to be reported); a type's own error may name its code with `coded()`; a field wrapped in
 * `absent()` takes null as not given; an object's `.catchall(unknownKey(…))` refuses each key it does
 * not declare with an item of its own (its message may say `{key}`). A schema with `meta({ id })`
 * is a named OpenAPI component (`declaredComponents`), referenced where it is used; `openApiModelOf`
 * gives a DTO a handle to it, so a recursive declaration is documented by reference.
 */
type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

const CODES: Partial<Record<Issue['code'], string>> = {
  invalid_type: 'invalid_type',
  invalid_union: 'invalid_type',
  too_big: 'too_big',
  too_small: 'too_small',
  invalid_value: 'invalid_enum_value',
  invalid_format: 'invalid_string',
};

const nullAsAbsent = new WeakSet<z.ZodType>();

/** An optional field that also takes null as "not given" (the OpenAPI document does not call it nullable). */
export function absent<T extends z.ZodType>(schema: T): z.ZodOptional<z.ZodNullable<T>> {
  const nullable = schema.nullable();
  nullAsAbsent.add(nullable);
  return nullable.optional();
}

const CODED = /^\[(\w+)(,-received)?\] /;

/** A type's error message that names its envelope code (else `invalid_type`, or `required` for a missing value); `quiet` leaves `received` out. */
export function coded(code: string, message: string, quiet = false): string {
  return `[${code}${quiet ? ',-received' : ''}] ${message}`;
}

/** A custom check's issue in the envelope's terms. */
export function issue(ctx: z.RefinementCtx, path: Path, code: string, message: string, received?: unknown): void {
  ctx.addIssue({ code: 'custom', path, message, params: { code, received } });
}

const unlisted = new WeakSet<z.ZodType>();

/**
 * An object's catchall that refuses each undeclared key with its own item (`<object>.<key>`; the
 * message may say `{key}`; `received`: the item shows the key's value); the document says `additionalProperties: false`.
 */
export function unknownKey(code: string, message: string, options: { received?: boolean } = {}): z.ZodType {
  const refusal = z.unknown().superRefine((value, ctx) => issue(ctx, [], code, message, options.received ? value : undefined));
  unlisted.add(refusal);
  return refusal;
}

export interface DeclaredBodyOptions {
  /** Unknown top-level fields that look like a misspelling, with the field meant: a 422 item each (`unrecognized_keys`). */
  nearMisses?: Record<string, string>;
  /** The field the input is (a part of a larger body): items' paths start with it, rather than `body` for the input itself. */
  at?: string;
}

/** The declared body's value, or its 422 items in order of the declaration, one per field (then the misspelt fields). */
export function parseDeclared<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: DeclaredBodyOptions = {},
): { value: z.output<S>; errors: [] } | { value: null; errors: FieldError[] } {
  const result = schema.safeParse(input);
  const misspelt = options.nearMisses && isRecord(input) ? nearMissErrors(input, options.nearMisses) : [];
  if (result.success && misspelt.length === 0) return { value: result.data, errors: [] };
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const items = result.success ? [] : flatten(result.error.issues, [], input, options.at === undefined ? [] : [options.at]);
  // An item marked `alone` (a collection over its size limit) stands for its field: its members are not reported.
  const alone = items.filter((i) => i.alone).map((i) => i.field);
  const under = (field: string) => alone.some((f) => field.startsWith(`${f}[`) || field.startsWith(`${f}.`));
  for (const { alone: _, ...item } of items) {
    if (seen.has(item.field) || under(item.field)) continue;
    seen.add(item.field);
    errors.push(item);
  }
  return { value: null, errors: [...errors, ...misspelt] };
}

/** A pipe that answers a body outside its declaration with 422 (the envelope's items). */
export function DeclaredBodyPipe<S extends z.ZodType>(schema: S, options: DeclaredBodyOptions = {}): new () => PipeTransform<unknown, z.output<S>> {
  @Injectable()
  class Pipe implements PipeTransform<unknown, z.output<S>> {
    transform(value: unknown): z.output<S> {
      const parsed = parseDeclared(schema, value, options);
      if (parsed.value === null) throw validationError(parsed.errors);
      return parsed.value;
    }
  }
  return Pipe;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The named schemas (`meta({ id })`) of every declaration documented so far, by id: one registry for the document's components. */
const components: Record<string, SchemaObject> = {};

/** The components the declarations name (`openApiSchemaOf`, `openApiModelOf`), for the document's `components.schemas`. */
export function declaredComponents(): Record<string, SchemaObject> {
  return { ...components };
}

/** The OpenAPI 3.0 schema of what a client sends (the declaration's input side); a named schema in it is a `$ref` to its component. */
export function openApiSchemaOf(schema: z.ZodType): SchemaObject {
  const { root } = documented(schema);
  return openApiShape(root) as SchemaObject;
}

/**
 * A named handle for `@ApiProperty({ type: () => Handle })` to a declaration with `meta({ id })`:
 * the document's component of that name, and those of the parts it names (each declared once,
 * referenced as `#/components/schemas/<id>`), are the declaration's (the document puts them in
 * place of the handle's empty model).
 */
export function openApiModelOf(schema: z.ZodType): Type<unknown> {
  const { root, named } = documented(schema);
  const name = (root.allOf as Array<{ $ref?: string }> | undefined)?.[0]?.$ref?.split('/').pop();
  if (!name || !named.includes(name)) throw new Error('openApiModelOf: the declaration has no meta({ id })');
  return { [name]: class {} }[name];
}

/** The declaration's JSON schema with its named parts moved to the registry (`named`: their ids). */
function documented(schema: z.ZodType): { root: Record<string, unknown>; named: string[] } {
  const json = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (nullAsAbsent.has(zodSchema as unknown as z.ZodType)) delete jsonSchema.nullable;
      const def = (zodSchema as unknown as z.ZodObject)._zod.def;
      if (def.type === 'object' && def.catchall && unlisted.has(def.catchall as z.ZodType)) jsonSchema.additionalProperties = false;
    },
  }) as Record<string, unknown>;
  const { $schema: _, definitions = {}, $defs = {}, ...root } = json as { $schema?: string; definitions?: Record<string, unknown>; $defs?: Record<string, unknown> };
  const named = { ...definitions, ...$defs };
  for (const [id, part] of Object.entries(named)) components[id] = openApiShape(part) as SchemaObject;
  return { root, named: Object.keys(named) };
}

const SAFE_INTEGER_BOUNDS = new Set(['minimum', 'maximum']);

/**
 * zod writes an integer's own bounds (the safe integers), which say nothing a client needs, a
 * union as `anyOf` (the declared unions are of disjoint shapes, which OpenAPI says
 * with `oneOf`), a record's string keys as `propertyNames`, which OpenAPI 3.0 does not know, and
 * refers to a named schema under `#/definitions/` (in an `allOf` of its own), the document's `#/components/schemas/`.
 */
function openApiShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openApiShape);
  if (typeof value !== 'object' || value === null) return value;
  // A named schema with nothing beside it (no `nullable`): its bare reference.
  const { allOf, ...beside } = value as { allOf?: unknown[] };
  if (allOf?.length === 1 && Object.keys(beside).length === 0) return openApiShape(allOf[0]);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => k !== 'propertyNames' && !(SAFE_INTEGER_BOUNDS.has(k) && Math.abs(v as number) === Number.MAX_SAFE_INTEGER))
      .map(([k, v]) => [k === 'anyOf' ? 'oneOf' : k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\/(?:definitions|\$defs)\//, '#/components/schemas/') : openApiShape(v)]),
  );
}

/** A union's issue stands for the branch that got past the value's type (`{email}` rather than a string), or for itself. */
type Item = FieldError & { alone?: boolean };

function flatten(issues: readonly Issue[], base: Path, input: unknown, at: Path): Item[] {
  const out: Item[] = [];
  for (const iss of issues) {
    const path = [...base, ...iss.path];
    if (iss.code === 'invalid_union') {
      const branch = iss.errors.find((b) => !b.every(typeMismatch));
      if (branch) {
        out.push(...flatten(branch, path, input, at));
        continue;
      }
    }
    out.push(toFieldError(iss, path, input, at));
  }
  return out;
}

function typeMismatch(iss: Issue): boolean {
  if (iss.path.length > 0) return false;
  return iss.code === 'invalid_type' || (iss.code === 'invalid_union' && iss.errors.every((b) => b.every(typeMismatch)));
}

function toFieldError(iss: Issue, path: Path, input: unknown, at: Path): Item {
  const field = fieldName([...at, ...path]);
  const value = valueAt(input, path);
  const params = iss.code === 'custom' ? (iss.params as { code?: string; received?: unknown; alone?: boolean } | undefined) : undefined;
  const missing = value === undefined || value === null;
  const tag = CODED.exec(iss.message);
  const code = tag?.[1] ?? params?.code ?? ((iss.code === 'invalid_type' || iss.code === 'invalid_union') && missing ? 'required' : (CODES[iss.code] ?? 'invalid_string'));
  const received = tag?.[2] ? undefined : params && 'received' in params ? params.received : value;
  return { field, code, message: iss.message.replace(CODED, '').replaceAll('{field}', field).replaceAll('{key}', String(path.at(-1) ?? '')), received: summarize(received), alone: params?.alone };
}

function fieldName(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += `${out ? '.' : ''}${String(key).replace(/\r/g, '\\r').replace(/\n/g, '\\n')}`;
  }
  return out || 'body';
}

function valueAt(input: unknown, path: Path): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
