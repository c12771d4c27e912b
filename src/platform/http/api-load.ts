import type { NextFunction, Request, Response } from 'express';

/**
 * In-flight HTTP requests of this process at which background work that yields to the API
 * (`yieldToApi`) waits. By Little's law in-flight requests are the arrival rate times the
 * response time, so the count rises exactly when the process is saturated (50 connections of
 * load keep ~50 in flight) and stays near zero otherwise (100 req/s answered in 5 ms: 0.5).
 */
export const API_BUSY_IN_FLIGHT = 4;
/** How often a waiter looks again. */
const RECHECK_MS = 20;

let inFlight = 0;

/** Counts the process's in-flight requests: from the first middleware until the response closes (finished or aborted). */
export function apiLoadMiddleware(_req: Request, res: Response, next: NextFunction): void {
  inFlight++;
  res.once('close', () => inFlight--);
  next();
}

/** This process's HTTP requests in flight now. */
export function apiInFlight(): number {
  return inFlight;
}

/** When a waiter last went on while the API was still busy (its bound had passed). */
let lastForcedAt = 0;

/**
 * Background work that competes with the API for the CPU calls this first: while the process has
 * `API_BUSY_IN_FLIGHT` or more requests in flight it waits until they drop below. So that the
 * work still progresses under a load that never ends, one waiter goes on anyway every
 * `maxWaitMs` (the first once it has waited that long; with N waiting, the last waits about N
 * times that). 0: never waits. Resolves with the milliseconds waited.
 */
export async function yieldToApi(maxWaitMs: number, busyAt: number = API_BUSY_IN_FLIGHT): Promise<number> {
  if (maxWaitMs <= 0 || inFlight < busyAt) return 0;
  const started = Date.now();
  for (;;) {
    // Unref'd: a wait alone never keeps a process that is shutting down alive.
    await new Promise((resolve) => setTimeout(resolve, RECHECK_MS).unref());
    if (inFlight < busyAt) break;
    const now = Date.now();
    if (now - started >= maxWaitMs && now - lastForcedAt >= maxWaitMs) {
      lastForcedAt = now;
      break;
    }
  }
  return Date.now() - started;
}

/**
 * `yieldToApi` for work that is polled rather than awaited (an event consumer's turn in the
 * outbox's rounds): the returned gate answers false while the process has `busyAt` or more
 * requests in flight, and true once they drop below, or once it has answered false for
 * `maxWaitMs` (then it starts counting again), so the work still progresses under a load that
 * never ends. 0: always true.
 */
export function apiYieldGate(maxWaitMs: number, busyAt: number = API_BUSY_IN_FLIGHT): () => boolean {
  let heldSince: number | null = null;
  return () => {
    if (maxWaitMs <= 0 || inFlight < busyAt) {
      heldSince = null;
      return true;
    }
    const now = Date.now();
    heldSince ??= now;
    if (now - heldSince < maxWaitMs) return false;
    heldSince = null;
    return true;
  };
}
