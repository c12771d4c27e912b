import { Processor } from '@nestjs/bullmq';
import type { WorkerOptions } from 'bullmq';
import type { QueueName } from './queues';

/**
 * Declares a queue's worker without starting it; `WorkersService` starts every worker in
 * processes whose ROLE runs workers (`all`, `worker`), and never in `api` processes.
 */
export function QueueProcessor(queue: QueueName, options: Partial<WorkerOptions> = {}): ClassDecorator {
  return Processor(queue, { concurrency: 4, ...options, autorun: false });
}
