import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

/**
 * Every API request has a deadline (`REQUEST_TIMEOUT_MS`): a silent PostgreSQL or Redis must
 * not hold it longer. The deadline travels with the request's async context, so the database
 * client bounds each statement by the time left and refuses to start one after it (a request
 * that answered 503 then does nothing more, even once the database answers again); a backstop
 * answers 503 for whatever else still waits.
 */
const deadlines = new AsyncLocalStorage<{ at: number; ms: number }>();

/** The backstop answers a little after the deadline, so the statement that timed out answers first, through the error filter. */
const BACKSTOP_GRACE_MS = 250;

export class DeadlineExceededError extends Error {
  constructor() {
    super('Request deadline exceeded while waiting for a backing service');
    this.name = 'DeadlineExceededError';
  }
}

/** Milliseconds left before the current request's deadline; undefined outside a request (workers) or without a deadline. */
export function deadlineRemainingMs(): number | undefined {
  const store = deadlines.getStore();
  return store ? store.at - Date.now() : undefined;
}

/**
 * Waits for `work` until `marginMs` before the request's deadline, then rejects with
 * DeadlineExceededError (the work itself goes on). Outside a request: waits for the work.
 */
export async function beforeDeadline<T>(work: Promise<T>, marginMs: number): Promise<T> {
  const remaining = deadlineRemainingMs();
  if (remaining === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError()), Math.max(0, remaining - marginMs));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The pieces of a streamed answer, each pulled under a deadline of its own (the request's length,
 * from when it is pulled) instead of the request's: a long download (a contact's export) is made
 * of many short waits on the database, each bounded, while the whole may take as long as the
 * client takes. Outside a request, or without a deadline, the pieces as they come.
 */
export async function* eachWithinOwnDeadline<T>(pieces: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pieces[Symbol.asyncIterator]();
  const request = deadlines.getStore();
  try {
    for (;;) {
      const next = request ? await deadlines.run({ at: Date.now() + request.ms, ms: request.ms }, () => iterator.next()) : await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

export function requestDeadlineMiddleware(timeoutMs: number, answer: (req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (timeoutMs <= 0) return next();
    const timer = setTimeout(() => answer(req, res), timeoutMs + BACKSTOP_GRACE_MS);
    const clear = () => clearTimeout(timer);
    res.once('finish', clear);
    res.once('close', clear);
    deadlines.run({ at: Date.now() + timeoutMs, ms: timeoutMs }, next);
  };
}
