import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, WorkerOptions } from 'bullmq';
import { runJob } from '../telemetry/telemetry';
import type { QueueName } from './queues';

/**
 * Declares a queue's worker without starting it; `WorkersService` starts every worker in
 * processes whose ROLE runs workers (`all`, `worker`), and never in `api` processes.
 */
export function QueueProcessor(queue: QueueName, options: Partial<WorkerOptions> = {}): ClassDecorator {
  const declare = Processor(queue, { concurrency: 4, ...options, autorun: false });
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
