import type { NextFunction, Request, Response } from 'express';
import { logger } from './logger';

/** Probes hit these every few seconds; they are logged at debug so they don't drown real traffic. */
const QUIET_PATHS = new Set(['/health', '/health/ready', '/metrics']);

/** One JSON line per finished request: method, path, status, ms, requestId, projectId (when authenticated). */
export function accessLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const log = logger('http');
  const start = process.hrtime.bigint();
  // Read now: a mounted router (the dashboard under /app) strips its prefix from req.path.
  const path = req.path;
  res.once('finish', () => {
    const status = res.statusCode;
    const level = QUIET_PATHS.has(path) ? 'debug' : status >= 500 ? 'error' : 'info';
    if (!log.isLevelEnabled(level)) return;
    const principal = req.user as { projectId?: string } | undefined;
    log[level](
      {
        method: req.method,
        path,
        status,
        ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
        requestId: req.id,
        projectId: principal?.projectId,
      },
      'request',
    );
  });
  next();
}
