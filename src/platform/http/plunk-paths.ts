import type { NextFunction, Request, Response } from 'express';

/**
 * Plunk clients configured for a self-hosted Plunk call `<base>/api/v1/…`: every `/v1/…` route also
 * answers there. The path is rewritten before anything else sees it, so the route, its guards, rate
 * limits, idempotency, CORS and body limits are the `/v1/` ones, and the OpenAPI document lists each once.
 */
export function plunkApiPrefixMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (req.url === '/api/v1' || req.url.startsWith('/api/v1/') || req.url.startsWith('/api/v1?')) req.url = req.url.slice('/api'.length);
  next();
}

interface RouterLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
}

/** The paths the Express app routes (`/contacts/:id`, …), read from its router. */
function routedPaths(app: unknown): string[] {
  const stack = (app as { router?: { stack?: RouterLayer[] } })?.router?.stack ?? [];
  return stack.map((layer) => layer.route?.path).filter((path): path is string => typeof path === 'string');
}

/**
 * The 404 message for a path under `/v1/` that no route serves: a Plunk user trying `/v1/contacts`
 * is told that the route is `/contacts`. Null when no route outside `/v1/` starts like it.
 */
export function unknownV1RouteMessage(method: string, path: string, app: unknown): string | null {
  if (!path.startsWith('/v1/')) return null;
  const rest = path.slice('/v1'.length).replace(/\/+$/, '');
  const first = rest.split('/')[1];
  if (!first) return null;
  const routes = [...new Set(routedPaths(app).filter((p) => p === `/${first}` || p.startsWith(`/${first}/`)))];
  if (routes.length === 0) return null;
  const exact = routes.find((p) => p === rest) ?? `/${first}`;
  return `No route ${method} ${path}: use \`${exact}\` (this API serves it without the /v1 prefix; /v1 holds send, track, verify, emails and ping)`;
}
