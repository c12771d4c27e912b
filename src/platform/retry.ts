/**
 * Runs `work` again while it fails with an error `retryable` accepts, up to `attempts` runs in
 * all; the last error (or the first one not worth retrying) is thrown. `onRetry` is told of each
 * run again. The one retry loop for transient failures: the Batcher's batches and
 * `retryOnConflict`'s statements both go through it.
 */
export async function retrying<T>(work: () => Promise<T>, retryable: (error: unknown) => boolean, attempts: number, onRetry?: () => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !retryable(error)) throw error;
      onRetry?.();
    }
  }
}
