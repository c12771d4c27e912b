import type { JobTrace } from '../telemetry/telemetry';

/**
 * Every queue and the payload of its jobs. Queue names are persisted (jobs wait under them):
 * renaming one strands its queued jobs. Jobs carry ids, never payloads; job ids are
 * deterministic so a retried enqueue cannot duplicate work.
 */
export const QUEUES = {
  /** CSV contact imports (one job per import_jobs row). */
  contactImport: 'contact-import',
  /** Bulk subscribe / unsubscribe / delete (one job per bulk_jobs row). */
  contactBulk: 'contact-bulk',
  /** Contact erasures (one job per contact_erasures row). */
  contactErasure: 'contact-erasure',
  /** Bulk contact exports to a file (one job per contact_exports row). */
  contactExport: 'contact-export',
  /** One job per emails row (jobId = email id): render, compose, hand to the transport. */
  emailSend: 'email-send',
  /** Workflow step runs (jobId `<executionId>.<seq>`, or a group of executions just started) and wake-ups of waiting executions. */
  workflowStep: 'workflow-step',
  /** Event webhook deliveries: a group of deliveries made together, or one delivery's next attempt (job ids in webhooks/engine/webhook-queue.ts). */
  webhookDelivery: 'webhook-delivery',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * `trace` (only while OpenTelemetry is on; absent otherwise): the W3C trace context of each
 * request whose emails the job sends (`traceparent`, `tracestate`). With one, the job's span is a
 * child of that request's; with several (a group of concurrent requests' emails), it links to each.
 */
export interface TracedPayload {
  trace?: JobTrace[];
}

/** Step number `seq` of a workflow execution. */
export interface StepRef {
  executionId: string;
  seq: number;
}

export interface JobPayloads {
  'contact-import': { projectId: string; importJobId: string };
  'contact-bulk': { projectId: string; bulkJobId: string };
  'contact-erasure': { projectId: string; erasureId: string };
  'contact-export': { projectId: string; exportId: string };
  /** One email (`emailId`: retries, the sweep, rate-limited sending) or a group sent together (`emailIds`). */
  'email-send': ({ emailId: string; emailIds?: undefined } | { emailIds: string[]; emailId?: undefined }) & TracedPayload;
  /**
   * Runs step number `seq` of the execution, or (`wake`) resumes it from the wait that step
   * number `seq` - 1 began; or runs that step of each execution of a group (`steps`); or resumes
   * each execution of a group that fell due together (`wakes`, the only form of wake-up enqueued
   * now; `wake` stays readable for jobs enqueued by earlier versions, as a DELAY's job may wait up
   * to a year).
   */
  'workflow-step':
    | { executionId: string; seq: number; wake?: boolean; steps?: undefined; wakes?: undefined }
    | { steps: StepRef[]; executionId?: undefined; seq?: undefined; wake?: undefined; wakes?: undefined }
    | { wakes: StepRef[]; executionId?: undefined; seq?: undefined; wake?: undefined; steps?: undefined };
  /** An attempt of each delivery (webhook_deliveries ids) that is still pending and due. */
  'webhook-delivery': { deliveryIds: string[] };
}

/** Retries are job options: exponential backoff from 2 s, kept briefly for inspection. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;
