import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequestsTotal } from './metrics';

/** The matched route's pattern (`/v1/contacts/:id`), never the raw path, to keep label cardinality bounded. */
export function routePattern(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return (req.baseUrl ?? '') + route.path;
  // Swagger UI's assets are served by mounted middleware that rewrites req.url, so match the original URL.
  const path = (req.originalUrl ?? req.url).split('?')[0];
  if (path === '/docs' || path.startsWith('/docs/') || path.startsWith('/docs?')) return '/docs';
  // The dashboard's files and client routes (src/platform/http/dashboard.ts): one label.
  if (path === '/app' || path.startsWith('/app/')) return '/app';
  return registeredRoute(req, path) ?? 'unmatched';
}

interface RouterLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match(path: string): unknown;
}

/**
 * The pattern of the route a request answered before routing would have reached (a 422 of the
 * input guard, a body parser's 400 or 413): looked up in the app's router only for such requests.
 */
function registeredRoute(req: Request, path: string): string | undefined {
  const stack = (req.app as unknown as { router?: { stack?: RouterLayer[] } } | undefined)?.router?.stack ?? [];
  const method = req.method.toLowerCase();
  for (const layer of stack) {
    const route = layer.route;
    if (!route || typeof route.path !== 'string' || !route.methods) continue;
    if (!route.methods[method] && !route.methods._all && !(method === 'head' && route.methods.get)) continue;
    try {
      if (layer.match(path)) return route.path;
    } catch {
      // A malformed %-escape in a parameter: no route of ours.
    }
  }
  return undefined;
}

/** Counts and times every request once its response is finished. */
export function httpMetricsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  res.once('finish', () => {
    const labels = { method: req.method, route: routePattern(req), status: String(res.statusCode) };
    httpRequestsTotal.inc(labels);
    httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
  });
  next();
}
