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

/**
 * Background work that competes with the API for the CPU calls this first: while the process has
 * `API_BUSY_IN_FLIGHT` or more requests in flight it waits until they drop below, but never
 * longer than `maxWaitMs` (the work still progresses under a load that never ends; 0: never
 * waits). Resolves with the milliseconds waited.
 */
export async function yieldToApi(maxWaitMs: number, busyAt: number = API_BUSY_IN_FLIGHT): Promise<number> {
  if (maxWaitMs <= 0 || inFlight < busyAt) return 0;
  const started = Date.now();
  while (inFlight >= busyAt) {
    const left = maxWaitMs - (Date.now() - started);
    if (left <= 0) break;
    // Unref'd: a wait alone never keeps a process that is shutting down alive.
    await new Promise((resolve) => setTimeout(resolve, Math.min(RECHECK_MS, left)).unref());
  }
  return Date.now() - started;
}
