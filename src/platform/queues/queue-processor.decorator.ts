import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, WorkerOptions } from 'bullmq';
import { runJob } from '../telemetry/telemetry';
import type { QueueName } from './queues';

/**
 * How long a job stays locked to its worker without a renewal (renewed every half of it while the
 * job runs), and how often the stalled-job check runs. A worker killed mid-job leaves its jobs
 * active until its locks lapse and two checks have seen them unlocked (BullMQ marks, then moves
 * back to waiting): with these, a few seconds instead of BullMQ's default minute, so a worker
 * that starts again (or the survivor) goes on at once. A job whose worker is alive but blocked
 * past the lock may run twice; every job checks its rows' state first (an email's claim, a
 * delivery's lease), so the second run does nothing that was done.
 */
export const JOB_LOCK_MS = 5_000;
export const STALLED_CHECK_MS = 2_000;

/**
 * Declares a queue's worker without starting it; `WorkersService` starts every worker in
 * processes whose ROLE runs workers (`all`, `worker`), and never in `api` processes.
 */
export function QueueProcessor(queue: QueueName, options: Partial<WorkerOptions> = {}): ClassDecorator {
  const declare = Processor(queue, { concurrency: 4, lockDuration: JOB_LOCK_MS, stalledInterval: STALLED_CHECK_MS, ...options, autorun: false });
  return (target) => {
    traceJobs(target.prototype as WorkerHost, queue);
    declare(target);
  };
}

/**
 * Every job of every queue runs in its span (telemetry/telemetry.ts `runJob`; a plain call when
 * OpenTelemetry is off): wrapped here, where every processor is declared, not in each one.
 */
function traceJobs(processor: WorkerHost, queue: QueueName): void {
  const process = processor.process;
  processor.process = function (this: WorkerHost, job: Job, token?: string) {
    return runJob(queue, job, () => process.call(this, job, token));
  };
}
