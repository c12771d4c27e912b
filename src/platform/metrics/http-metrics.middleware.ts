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
  return 'unmatched';
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
