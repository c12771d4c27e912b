import type { INestApplication } from '@nestjs/common';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../../config/config';
import { ACCESS_KEY, AccessKind, SESSION_COOKIE } from './access';

const SECURITY_BY_ACCESS: Record<AccessKind, Record<string, string[]>[]> = {
  public: [],
  secret: [{ 'secret-key': [] }, { session: [] }],
  'public-or-secret': [{ 'secret-key': [] }, { session: [] }],
  session: [{ session: [] }],
};

/** `Controller_method` → the route's declared access, read from the same metadata the guard uses. */
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
      if (access) map.set(`${type.name}_${key}`, access);
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

/** The error envelope every 4xx and 5xx answer uses (spec section 4), referenced by every operation. */
const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'message', 'error', 'timestamp'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    message: { type: 'string', description: 'Same text as error.message, for clients (Plunk\'s SDK) that read it here', example: 'Request validation failed' },
    error: {
      type: 'object',
      required: ['code', 'message', 'statusCode', 'requestId'],
      properties: {
        code: { type: 'string', description: 'Stable error code, e.g. VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED', example: 'VALIDATION_ERROR' },
        message: { type: 'string' },
        statusCode: { type: 'integer' },
        requestId: { type: 'string', description: 'Also in the X-Request-ID response header and the logs' },
        errors: {
          type: 'array',
          description: 'One item per invalid field (422)',
          items: {
            type: 'object',
            required: ['field', 'message', 'code'],
            properties: {
              field: { type: 'string', description: 'Dotted path, e.g. to[1].email' },
              message: { type: 'string' },
              code: { type: 'string', description: 'invalid_type, invalid_string, required, too_big, too_small, too_deep, unrecognized_keys, …' },
              received: { description: 'The value received (clipped)' },
            },
          },
        },
        details: { type: 'object', additionalProperties: true },
        suggestion: { type: 'string', description: 'What to do about it' },
      },
    },
    timestamp: { type: 'string', format: 'date-time' },
  },
} as const;

function applyErrorEnvelope(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, ErrorEnvelope: ERROR_ENVELOPE as never };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, unknown> })?.responses;
      if (!responses || responses['4XX']) continue;
      responses['4XX'] = { description: 'Client error in the error envelope (400, 401, 403, 404, 409, 413, 422, 429)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
    }
  }
}

/**
 * The API's OpenAPI document, generated from the controllers' metadata. Needs no instantiated
 * provider, so `openapi-cli.ts` builds it from an app created in Nest's preview mode.
 */
export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'publicUrl'>): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Mailroom API')
      .setDescription('Self-hostable email sending and audience service. Authenticate with `Authorization: Bearer sk_…` (secret key), or with the dashboard session cookie plus `X-Project-Id`.')
      .setVersion('1')
      .addServer(config.publicUrl)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Secret key `sk_…` (or the public key `pk_…` on /v1/track)' }, 'secret-key')
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Dashboard session (send `X-Project-Id` on project routes)' }, 'session')
      .build(),
    { operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}` },
  );
  applySecurity(document, accessByOperation(app));
  applyErrorEnvelope(document);
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
