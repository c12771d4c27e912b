/**
 * `work`'s value if it settles within `ms`, else `timedOut` (the work itself goes on, unobserved
 * by this caller); a rejection within the time rejects. The timer never keeps the process alive.
 */
export async function within<T, F>(work: Promise<T>, ms: number, timedOut: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
