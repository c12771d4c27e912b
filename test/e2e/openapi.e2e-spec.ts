import { DiscoveryService } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { useSession } from '../support/session';
import { operationIdOf } from '../../src/platform/http/openapi';

/**
 * `/docs/openapi.json` documents every route: each operation has a documented success response
 * (a schema, or 204 without a body), each handler that reads a body has a request schema, and
 * every field of those schemas has a type (request fields also a description); each handler that
 * reads the query documents every parameter it accepts. Every operation has a summary, exactly one
 * tag (its module's), and the error answers its route gives, in the error envelope. A route added
 * without swagger decorators fails here, named.
 */
interface Schema {
  type?: string;
  $ref?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** Nest's RouteParamtypes.BODY and QUERY, as stored in the `__routeArguments__` metadata key by @Body() and @Query(). */
const BODY_PARAM = 3;
const QUERY_PARAM = 4;
const ROUTE_ARGS = '__routeArguments__';

describe('OpenAPI document covers every route', () => {
  const session = useSession({ DOMAIN_VERIFICATION: 'off', EMAIL_TRANSPORT: 'outbox' });
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
    tags: Array<{ name: string }>;
    servers: Array<{ url: string }>;
  };

  beforeAll(async () => {
    doc = (await session.anonymous.get('/docs/openapi.json').expect(200)).body;
  });

  const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);
  const typed = (s: Schema | undefined): boolean =>
    Boolean(s && (s.type || s.$ref || s.oneOf || s.anyOf || s.allOf || s.enum || s.description !== undefined || Object.keys(s).length > 0));

  /** Problems with the fields of one schema (recursing into `$ref`s and nested objects once). */
  function fieldProblems(where: string, schema: Schema | undefined, needDescriptions: boolean, seen = new Set<string>()): string[] {
    if (schema?.$ref) {
      if (seen.has(schema.$ref)) return [];
      seen.add(schema.$ref);
    }
    const s = resolve(schema);
    if (!s) return [`${where}: schema ${schema?.$ref ?? ''} missing`];
    const parts = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])];
    if (parts.length) return parts.flatMap((p, i) => fieldProblems(`${where}#${i}`, p, needDescriptions, seen));
    if (s.type === 'array') return s.items ? fieldProblems(`${where}[]`, s.items, needDescriptions, seen) : [`${where}: array without items`];
    if (s.type === 'object' || s.properties) {
      const props = Object.entries(s.properties ?? {});
      if (props.length === 0 && !s.additionalProperties) return [`${where}: object without documented fields`];
      return props.flatMap(([name, prop]) => [
        ...(typed(prop) ? [] : [`${where}.${name}: no type`]),
        ...(needDescriptions && !prop.description && !resolve(prop)?.description && !prop.$ref ? [`${where}.${name}: no description`] : []),
        ...(prop.$ref || prop.properties || prop.items || prop.oneOf ? fieldProblems(`${where}.${name}`, prop, needDescriptions, seen) : []),
      ]);
    }
    return typed(s) ? [] : [`${where}: untyped`];
  }

  /** Every controller handler: `Controller_method`, its route arguments and its parameter types. */
  function* handlers(): Generator<{ id: string; args: Array<[number, { index: number; data?: unknown }]>; types: unknown[] }> {
    for (const wrapper of session.app.runtime.app.get(DiscoveryService).getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!type?.prototype) continue;
      for (const key of Object.getOwnPropertyNames(type.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS, type, key) ?? {}) as Record<string, { index: number; data?: unknown }>;
        yield {
          id: operationIdOf(type, key),
          args: Object.entries(args).map(([argKey, arg]) => [Number(argKey.split(':')[0]), arg]),
          types: (Reflect.getMetadata('design:paramtypes', type.prototype, key) ?? []) as unknown[],
        };
      }
    }
  }

  /** The properties class-validator checks on a `@Query()` DTO class (none for an inline type). */
  function validatedFields(dto: unknown): string[] {
    if (typeof dto !== 'function' || dto === Object) return [];
    return getMetadataStorage().getTargetValidationMetadatas(dto as new () => unknown, '', true, false).map((m) => m.propertyName);
  }

  /** `Controller_method` of every handler that takes a `@Body()`. */
  function handlersWithBody(): Set<string> {
    return new Set([...handlers()].filter((h) => h.args.some(([kind]) => kind === BODY_PARAM)).map((h) => h.id));
  }

  /**
   * `Controller_method` → the query parameters each handler accepts: the name of a `@Query('name')`,
   * the whitelisted properties of a `@Query()` DTO class, or `(inline type)` for a `@Query()` typed
   * inline (the validation pipe cannot see it, so neither can the document).
   */
  function queryParameters(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const { id, args, types } of handlers()) {
      const names = args
        .filter(([kind]) => kind === QUERY_PARAM)
        .flatMap(([, arg]) => {
          if (typeof arg.data === 'string') return [arg.data];
          const fields = validatedFields(types[arg.index]);
          return fields.length ? [...new Set(fields)] : ['(inline type)'];
        });
      if (names.length) out.set(id, names);
    }
    return out;
  }

  /** `Controller_method` of every handler whose `@Query()` is a DTO class the validation pipe checks (a 422 on a bad value). */
  function handlersWithValidatedQuery(): Set<string> {
    return new Set(
      [...handlers()]
        .filter((h) => h.args.some(([kind, arg]) => kind === QUERY_PARAM && typeof arg.data !== 'string' && validatedFields(h.types[arg.index]).length > 0))
        .map((h) => h.id),
    );
  }

  it('the document names its server: PUBLIC_URL', () => {
    expect(doc.servers).toEqual([{ url: session.app.config.publicUrl }]);
  });

  it('every operation has a summary and exactly one tag, one of the module tags the document declares', () => {
    const declared = new Set(doc.tags.map((t) => t.name));
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = `${method.toUpperCase()} ${path} (${op.operationId})`;
        if (!op.summary?.trim()) problems.push(`${route}: no summary`);
        if (op.tags?.length !== 1) problems.push(`${route}: ${op.tags?.length ?? 0} tags (${(op.tags ?? []).join(', ')}), not one`);
        else if (!declared.has(op.tags[0])) problems.push(`${route}: tag ${op.tags[0]} is not a declared module tag`);
      }
    }
    expect(problems).toEqual([]);
    // Every declared tag is used: no module tag left behind by a rename.
    const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
    expect([...declared].filter((t) => !used.has(t))).toEqual([]);
  });

  it('every operation documents the error answers its route gives, in the error envelope', () => {
    const withBody = handlersWithBody();
    const withQuery = handlersWithValidatedQuery();
    expect(withQuery.size).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = `${method.toUpperCase()} ${path} (${op.operationId})`;
        const responses = op.responses ?? {};
        const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
        const expected: Array<[string, string]> = [];
        // From the access declaration: refused credentials, the cookie-write CSRF check, the project's rate limit, an outage.
        if (schemes.length) expected.push(['401', 'authenticated'], ['503', 'authenticated (the credentials are read from the database)']);
        if (schemes.includes('session') && method !== 'get') expected.push(['403', 'a write accepting the session cookie']);
        if (schemes.includes('secret-key')) expected.push(['429', 'project-scoped (rate limited)']);
        // From the route: a validated body or query, a resource named in the path.
        if (withBody.has(op.operationId)) expected.push(['422', 'reads a validated body']);
        if (withQuery.has(op.operationId)) expected.push(['422', 'reads a validated query']);
        if (/\{[^}]+\}/.test(path)) expected.push(['404', 'names a resource in its path']);
        for (const [status, why] of expected) if (!responses[status]) problems.push(`${route}: no ${status} response, though it ${why}`);
        for (const [status, response] of Object.entries(responses)) {
          if (!/^4\d\d$/.test(status) && !(status === '503' && schemes.length)) continue;
          const ref = response.content?.['application/json']?.schema?.$ref ?? '';
          if (!['#/components/schemas/ErrorEnvelope', '#/components/schemas/ShortError'].includes(ref)) problems.push(`${route}: ${status} is not in the error envelope (${ref || 'no schema'})`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(doc.components.schemas.ErrorEnvelope).toEqual(expect.objectContaining({ required: ['success', 'message', 'error', 'timestamp'] }));
  });

  it('every handler that reads the query documents each parameter it accepts, paging values as numbers', () => {
    const accepted = queryParameters();
    expect(accepted.size).toBeGreaterThan(15);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const names = accepted.get(op.operationId);
        if (!names) continue;
        seen.add(op.operationId);
        const documented = new Map((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
        for (const name of names) {
          const parameter = documented.get(name);
          if (!parameter) problems.push(`${method.toUpperCase()} ${path} (${op.operationId}): query parameter ${name} undocumented`);
          else if (['limit', 'page', 'pageSize', 'minutes'].includes(name) && !['integer', 'number'].includes(parameter.schema?.type ?? '')) {
            problems.push(`${method.toUpperCase()} ${path}: ${name} documented as ${parameter.schema?.type ?? 'untyped'}, not a number`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // Every such handler was found in the document (its operationId unchanged).
    expect([...accepted.keys()].filter((id) => !seen.has(id))).toEqual([]);
  });

  it('every operation documents its success response, and every body-reading handler its request body', () => {
    const withBody = handlersWithBody();
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = `${method.toUpperCase()} ${path} (${op.operationId})`;
        const success = Object.entries(op.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        if (success.length === 0) problems.push(`${route}: no success response`);
        for (const [status, response] of success) {
          const content = Object.values(response.content ?? {});
          if (status === '204') continue;
          if (content.length === 0 || !content.every((c) => c.schema)) problems.push(`${route}: response ${status} has no schema`);
          else problems.push(...content.flatMap((c) => (c.schema?.type === 'string' ? [] : fieldProblems(`${route} → ${status}`, c.schema, false))));
        }
        if (withBody.has(op.operationId)) {
          const schema = op.requestBody?.content?.['application/json']?.schema ?? op.requestBody?.content?.['multipart/form-data']?.schema;
          if (!schema) problems.push(`${route}: request body undocumented`);
          else problems.push(...fieldProblems(`${route} body`, schema, true));
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('POST /v1/send documents its body, naming the template field', () => {
    const send = doc.paths['/v1/send'].post;
    const schema = resolve(send.requestBody?.content?.['application/json']?.schema);
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(['to', 'template', 'subject', 'body', 'from', 'data', 'headers', 'attachments']));
    expect(schema?.properties?.template.description).toMatch(/not `templateId`/);
  });

  it('POST /v1/send with a near-miss field (templateId) is a 422 naming the right field, nothing sent', async () => {
    const res = await session.api
      .post('/v1/send', { to: 'near-miss@example.com', templateId: '00000000-0000-4000-8000-000000000000', subject: 'Hi', body: '<p>x</p>', from: 'hello@example.com' })
      .expect(422);
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'templateId', code: 'unrecognized_keys', message: expect.stringContaining('did you mean template') })]);
    expect(await session.read.contactCount()).toBe(0);
  });
});
