import type { INestApplication } from '@nestjs/common';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { ACCESS_KEY, AccessKind, SESSION_COOKIE } from './access';
import { declaredComponents } from './declared-body';
import { ERROR_ENVELOPE, ERROR_ENVELOPE_NAME, errorResponse, ErrorStatus, SHORT_ERROR, SHORT_ERROR_NAME } from './openapi-errors';

const SECURITY_BY_ACCESS: Record<AccessKind, Record<string, string[]>[]> = {
  public: [],
  secret: [{ 'secret-key': [] }, { session: [] }],
  'public-or-secret': [{ 'secret-key': [] }, { session: [] }],
  session: [{ session: [] }],
};

/** Where `@ApiOperation` keeps its options (`@nestjs/swagger`'s DECORATORS.API_OPERATION). */
const API_OPERATION_KEY = 'swagger/apiOperation';

/** A handler's operation id: the one its `@ApiOperation` names (a route that moved keeps its id), else `Controller_method`. */
export function operationIdOf(type: { name: string; prototype: object }, key: string): string {
  const handler = (type.prototype as Record<string, unknown>)[key];
  const declared = typeof handler === 'function' ? (Reflect.getMetadata(API_OPERATION_KEY, handler) as { operationId?: string } | undefined)?.operationId : undefined;
  return declared ?? `${type.name}_${key}`;
}

/**
 * The route's operation id → its declared access, read from the same metadata the guard uses. The
 * id is `Controller_method`, or the one its `@ApiOperation` names (a route that moved keeps its id).
 */
function accessByOperation(app: INestApplication): Map<string, AccessKind> {
  const map = new Map<string, AccessKind>();
  // Built here rather than injected: in preview mode (openapi types) no provider is instantiated.
  for (const wrapper of new DiscoveryService(app.get(ModulesContainer)).getControllers()) {
    const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
    if (!type?.prototype) continue;
    const classAccess = Reflect.getMetadata(ACCESS_KEY, type) as AccessKind | undefined;
    for (const key of Object.getOwnPropertyNames(type.prototype)) {
      const handler = (type.prototype as Record<string, unknown>)[key];
      if (key === 'constructor' || typeof handler !== 'function') continue;
      const access = (Reflect.getMetadata(ACCESS_KEY, handler) as AccessKind | undefined) ?? classAccess;
      if (access) map.set(operationIdOf(type, key), access);
    }
  }
  return map;
}

function applySecurity(document: OpenAPIObject, access: Map<string, AccessKind>): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const id = (operation as { operationId?: string })?.operationId;
      const kind = id ? access.get(id) : undefined;
      if (kind) (operation as { security?: unknown }).security = SECURITY_BY_ACCESS[kind];
    }
  }
}

const SAFE_METHODS = new Set(['get', 'head', 'options']);
const COOKIE_WRITE_WITHOUT_CSRF_PROOF = 'A write with the session cookie but without X-Requested-With or a same-origin Origin (FORBIDDEN)';

/**
 * The error answers a route's access declaration implies, added to every operation that does not
 * document them itself (`@ApiErrors`): credentials refused (401), a cookie-authenticated write
 * without the CSRF proof (403), the per-project rate limit (429, only where a project is resolved)
 * and the database or queue being unreachable (503: authentication reads them).
 */
function impliedErrors(kind: AccessKind, method: string): ErrorStatus[] {
  if (kind === 'public') return [];
  const statuses: ErrorStatus[] = [401];
  if (!SAFE_METHODS.has(method)) statuses.push(403);
  if (kind !== 'session') statuses.push(429);
  statuses.push(503);
  return statuses;
}

function applyErrors(document: OpenAPIObject, access: Map<string, AccessKind>): void {
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, [ERROR_ENVELOPE_NAME]: ERROR_ENVELOPE as never, [SHORT_ERROR_NAME]: SHORT_ERROR as never };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const op = operation as { operationId?: string; responses?: Record<string, unknown> };
      const kind = op?.operationId ? access.get(op.operationId) : undefined;
      if (!op?.responses || !kind) continue;
      for (const status of impliedErrors(kind, method)) {
        const declared = op.responses[status] as { description?: string } | undefined;
        const implied = errorResponse(status, status === 403 ? COOKIE_WRITE_WITHOUT_CSRF_PROOF : undefined);
        // A route's own description of the status (e.g. its role check's 403) keeps the implied cause too.
        if (!declared) op.responses[status] = implied;
        else if (declared.description && !declared.description.includes(implied.description)) declared.description = `${declared.description}; or ${implied.description}`;
      }
      op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}

/** The models of zod declarations (`openApiModelOf`): each handle's empty model gives way to the declaration's components, in its place. */
function applyDeclared(document: OpenAPIObject): void {
  // A handle's empty model (openApiModelOf) is replaced in place by its declaration; the other named parts are added.
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...declaredComponents() } };
}

/** One tag per module, in the order the reference shows them; every operation carries exactly one. */
export const MODULE_TAGS: ReadonlyArray<[name: string, description: string]> = [
  ['emails', 'Send email (POST /v1/send) and read what became of it'],
  ['events', 'Track events (POST /v1/track) and list them'],
  ['contacts', 'Contacts, their custom fields, CSV imports and bulk jobs'],
  ['templates', 'Email templates'],
  ['segments', 'Segments of contacts and their members'],
  ['topics', 'Topics contacts subscribe to or leave (consent), for campaigns and segment filters'],
  ['campaigns', 'Campaigns to a segment or the whole audience'],
  ['previews', 'Templates and campaigns rendered as a contact, and test copies that count nowhere'],
  ['workflows', 'Workflows, their steps, transitions and executions'],
  ['domains', 'Sender domains and their DNS records'],
  ['webhooks', 'Event webhooks: endpoints, their deliveries log, retries, replays and secret rotation'],
  ['activity', 'The activity feed and analytics'],
  ['projects', 'Projects, members, keys and security (dashboard session)'],
  ['audit-log', "Who did what to the project: keys, settings, members, domains, webhooks, campaign sends (OWNER/ADMIN)"],
  ['auth', 'Accounts and sessions of the dashboard, and its public configuration'],
  ['billing', 'Billing limits, consumption and Stripe (dashboard session)'],
  ['uploads', 'Images for templates'],
  ['inbound', 'Mail received on the inbound SMTP listener (SMTP_INBOUND_PORT)'],
  ['verify', 'Address checks (POST /v1/verify)'],
  ['ping', 'Check a key (GET /v1/ping)'],
  ['health', 'Liveness and readiness probes'],
];

/**
 * The API's OpenAPI document, generated from the controllers' metadata. Needs no instantiated
 * provider, so `openapi-cli.ts` builds it from an app created in Nest's preview mode.
 */
export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'publicUrl'>): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Mailroom API')
    .setDescription('Self-hostable email sending and audience service. Authenticate with `Authorization: Bearer sk_…` (secret key), or with the dashboard session cookie plus `X-Project-Id`.')
    .setVersion('1')
    .addServer(config.publicUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Secret key `sk_…` (or the public key `pk_…` on /v1/track)' }, 'secret-key')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Dashboard session (send `X-Project-Id` on project routes)' }, 'session');
  for (const [name, description] of MODULE_TAGS) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}` });
  const access = accessByOperation(app);
  applySecurity(document, access);
  applyErrors(document, access);
  applyDeclared(document);
  return document;
}

/**
 * `GET /docs` (Swagger UI, assets from the local swagger-ui-dist package, so it works offline)
 * and `GET /docs/openapi.json`. Built lazily on the first request and then cached, so it costs
 * nothing at start.
 */
export function configureOpenApi(app: INestApplication, config: AppConfig): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup('docs', app, () => (document ??= buildOpenApiDocument(app, config)), {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Mailroom API',
  });
}
