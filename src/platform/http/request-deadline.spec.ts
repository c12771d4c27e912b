import type { NextFunction, Request, Response } from 'express';
import { EventEmitter } from 'node:events';
import { deadlineRemainingMs, eachWithinOwnDeadline, requestDeadlineMiddleware } from './request-deadline';

/** Runs `work` inside a request whose deadline is `timeoutMs` (the middleware's async context). */
function inRequest<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const res = Object.assign(new EventEmitter(), { headersSent: true }) as unknown as Response;
    const next: NextFunction = () => {
      work().then(resolve, reject).finally(() => res.emit('finish'));
    };
    requestDeadlineMiddleware(timeoutMs, () => {})({} as Request, res, next);
  });
}

describe('eachWithinOwnDeadline', () => {
  afterEach(() => jest.useRealTimers());

  it("pulls each piece under a deadline of the request's length, from when it is pulled", async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const seen: Array<number | undefined> = [];
    async function* pieces() {
      for (let i = 0; i < 3; i++) {
        seen.push(deadlineRemainingMs());
        yield i;
      }
    }
    const got = await inRequest(1_000, async () => {
      const out: number[] = [];
      for await (const piece of eachWithinOwnDeadline(pieces())) {
        out.push(piece);
        // The consumer takes its time: longer than the request's deadline between pieces.
        jest.setSystemTime(Date.now() + 5_000);
      }
      return out;
    });
    expect(got).toEqual([0, 1, 2]);
    expect(seen).toEqual([1_000, 1_000, 1_000]);
  });

  it('passes the pieces through outside a request, and closes the source when the consumer stops', async () => {
    let closed = false;
    async function* pieces() {
      try {
        yield deadlineRemainingMs();
        yield 2;
      } finally {
        closed = true;
      }
    }
    for await (const piece of eachWithinOwnDeadline(pieces())) {
      expect(piece).toBeUndefined();
      break;
    }
    expect(closed).toBe(true);
  });
});
