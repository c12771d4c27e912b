import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Express, type NextFunction, type Request, type Response, Router, static as serveStatic } from 'express';

/** Where the dashboard lives; everything else (API, hosted pages, docs) is untouched. */
export const DASHBOARD_PREFIX = '/app';

/**
 * The dashboard talks only to this origin (`connect-src 'self'`) and runs no inline script.
 * Styles may be inline and images may come from anywhere because the template preview shows
 * email HTML (in a sandboxed iframe without scripts), which is full of both.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
}

/**
 * Serves the built dashboard (`distDir`, Vite's output with `base: '/app/'`) under `/app/`:
 * hashed files in `assets/` for a year, every other path inside the prefix falls back to
 * `index.html` (client-side routes), which is never cached without revalidation. `GET /`
 * redirects to the dashboard. Registered before Nest's routes, on these paths only.
 */
export function configureDashboard(app: NestExpressApplication, distDir: string): void {
  const indexFile = join(distDir, 'index.html');
  const router = Router({ strict: true });

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    securityHeaders(res);
    if (!existsSync(indexFile)) {
      res.status(503).setHeader('Cache-Control', 'no-store');
      res.type('text/plain').send(`The dashboard is not built. Run \`npm run build\` (it writes ${distDir}), or point WEB_DIST_DIR at a built copy.\n`);
      return;
    }
    next();
  });
  router.use(
    '/assets',
    serveStatic(join(distDir, 'assets'), { index: false, redirect: false, cacheControl: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }),
  );
  router.use('/assets', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // A missing hashed file is an old build's reference: never answer it with HTML.
    res.status(404).setHeader('Cache-Control', 'no-store');
    res.type('text/plain').send('Not found\n');
  });
  router.use(
    serveStatic(distDir, {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.sendFile(indexFile, { cacheControl: false, lastModified: true, headers: { 'Cache-Control': 'no-cache' } }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });

  const express = app.getHttpAdapter().getInstance() as Express;
  express.get('/', (_req: Request, res: Response) => res.redirect(302, `${DASHBOARD_PREFIX}/`));
  express.use(DASHBOARD_PREFIX, (req: Request, res: Response, next: NextFunction) => {
    const [path, query] = splitUrl(req.originalUrl);
    // Relative asset URLs resolve against `/app/`, so the bare prefix moves there first.
    if (path === DASHBOARD_PREFIX) return res.redirect(301, `${DASHBOARD_PREFIX}/${query}`);
    router(req, res, next);
  });
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}
