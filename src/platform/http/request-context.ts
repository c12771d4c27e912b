import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    startedAt: bigint;
  }
}

/** Reuses a safe client `X-Request-ID` or makes one; it is echoed on every response and in errors and logs. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.header('x-request-id');
  req.id = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  req.startedAt = process.hrtime.bigint();
  res.setHeader('X-Request-ID', req.id);
  next();
}
