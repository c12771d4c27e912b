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
