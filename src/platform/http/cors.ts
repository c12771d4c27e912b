import { Router, type NextFunction, type Request, type Response } from 'express';

/**
 * The public API that web pages may call from any origin: `/v1/track` with the public key, and
 * `/v1/send`, `/v1/verify` for tools that run in browsers with the secret key. Nothing else.
 */
export const CORS_PATHS = ['/v1/track', '/v1/send', '/v1/verify'] as const;

const ALLOW_METHODS = 'POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
/** What a page may read from an answer beyond the CORS-safelisted headers. */
const EXPOSE_HEADERS = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-ID';
/** Seconds a browser may reuse a preflight (Chromium caps it at 7200). */
const MAX_AGE = '7200';

/**
 * CORS for the public API only, registered before the cookie parser, the body parsers and the
 * guards: a preflight (no `Authorization`) is answered 204 here, and every other answer of these
 * routes (success or error, from a parser, a guard, the rate limit or the handler) carries
 * `Access-Control-Allow-Origin: *`. Credentials are never allowed: a request from another origin
 * loses its cookies, so the dashboard session (`X-Project-Id`) cannot authenticate it; only a key
 * can. Every other route sends no `Access-Control-*` header, so browsers keep it same-origin.
 */
export function publicApiCors(ownOrigin: string) {
  // Matched the way Express routes (case-insensitive, optional trailing slash), only the exact paths.
  const router = Router();
  router.all(
    [...CORS_PATHS],
    (req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      const origin = req.header('origin');
      if (origin !== undefined && origin !== ownOrigin) delete req.headers.cookie;
      if (req.method !== 'OPTIONS') return next();
      res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE);
      res.status(204).end();
    },
  );
  return router;
}
