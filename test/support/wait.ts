/**
 * The one waiter of the test suites: polls `check` until it returns a value other than undefined,
 * sleeping `intervalMs` between tries; an error thrown by `check` fails at once.
 */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * `waitFor` for an assertion: retries until `assertion` stops throwing and returns its value; on
 * timeout, throws the assertion's last error (so the failure names what was expected).
 */
export async function eventually<T>(assertion: () => Promise<T>, timeoutMs = 15_000, intervalMs = 500): Promise<T> {
  let last: unknown;
  try {
    const { value } = await waitFor(
      async () => {
        try {
          return { value: await assertion() };
        } catch (error) {
          last = error;
          return undefined;
        }
      },
      timeoutMs,
      intervalMs,
    );
    return value;
  } catch (timeout) {
    throw last ?? timeout;
  }
}

/**
 * A random pause of up to `maxMs`: where a crash suite's kill lands in the work (not a wait for
 * anything; each run hits another moment).
 */
export function jitter(maxMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxMs)));
}

/**
 * The scenario's own time, not a wait for a condition: pacing a load, a real retry schedule or
 * outage running its course, a deliberately slow client. `why` says which, at the call.
 */
export function pause(ms: number, why: string): Promise<void> {
  if (!why.trim()) throw new Error('pause: say why the scenario takes this time');
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
