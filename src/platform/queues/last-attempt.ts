import type { Job } from 'bullmq';

/** Whether this run of the job is its last attempt: no retry follows a failure. */
export const isLastAttempt = (job: Job, attempts = job.opts.attempts ?? 1): boolean => job.attemptsMade + 1 >= attempts;

/**
 * Runs a job whose row tracks its state (an import, a bulk job, an export): a failure rethrows so
 * the queue retries it, and on the last attempt `fail` first records the reason on the row, so it
 * reports `failed` only once the retries are used up.
 */
export async function failOnLastAttempt(job: Job, work: () => Promise<void>, fail: (reason: string) => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (isLastAttempt(job)) await fail(err instanceof Error ? err.message : String(err));
    throw err;
  }
}
