import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

/**
 * One registry per process, created at import time: metrics are process-wide and several app
 * instances in one process (tests) share them instead of failing on duplicate registration.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

type Labels<T extends string> = { name: string; help: string; labelNames?: readonly T[] };

function existing<M>(name: string): M | undefined {
  return metricsRegistry.getSingleMetric(name) as M | undefined;
}

/**
 * Get-or-create helpers for other modules, e.g.
 * `const sent = metrics.counter({ name: 'mailroom_emails_sent_total', help: '…', labelNames: ['transport'] }); sent.inc({ transport: 'smtp' });`
 * Calling twice with the same name returns the same metric.
 */
export const metrics = {
  counter<T extends string = string>(config: Labels<T> & Omit<CounterConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Counter<T> {
    return existing<Counter<T>>(config.name) ?? new Counter<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
  gauge<T extends string = string>(config: Labels<T> & Omit<GaugeConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Gauge<T> {
    return existing<Gauge<T>>(config.name) ?? new Gauge<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
  histogram<T extends string = string>(config: Labels<T> & Omit<HistogramConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Histogram<T> {
    return existing<Histogram<T>>(config.name) ?? new Histogram<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
};

export const httpRequestsTotal = metrics.counter({
  name: 'http_requests_total',
  help: 'HTTP requests by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpRequestDuration = metrics.histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/**
 * The operator's counters besides HTTP, one typed call each, so modules never spell metric names
 * or labels themselves (docs/operations: "Metrics"):
 *   appMetrics.email('sent', 'smtp')            emails by status and transport
 *   appMetrics.handover('ses', seconds)         queued → accepted by the transport
 *   appMetrics.handoverWindow('record', s)      the at-most-once window: claim → transport's answer, answer → outcome written
 *   appMetrics.job('email-send', 'completed', s) job outcomes and durations per queue (workers.service)
 *   appMetrics.importRows('imported', n)        CSV import rows by outcome
 *   appMetrics.webhook('delivered')             workflow WEBHOOK step request outcomes
 *   appMetrics.eventWebhook('succeeded', n?)    event webhook attempts, by outcome
 *   appMetrics.workflowStep('SEND_EMAIL', 'completed', n?)
 *   appMetrics.feedback('bounce', 'Permanent')  bounces (by type) and complaints
 *   appMetrics.smtpSession('submission', +1)    SMTP sessions opened (and open now), by listener
 *   appMetrics.smtpMessage('inbound')           SMTP messages accepted, by listener
 *   appMetrics.smtpRejection('submission', 'auth_failed') SMTP refusals, by listener and reason
 *   appMetrics.auditWriteFailure()              audit log entries not written (the action stood)
 * Queue depth per queue and state is read at scrape time (setQueueDepthSource).
 */
const emailsTotal = metrics.counter({ name: 'mailroom_emails_total', help: 'Emails reaching a status, by status and transport', labelNames: ['status', 'transport'] as const });
const handoverSeconds = metrics.histogram({
  name: 'mailroom_email_handover_seconds',
  help: 'Time from an email being queued to the transport accepting it',
  labelNames: ['transport'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
});
const handoverWindowSeconds = metrics.histogram({
  name: 'mailroom_handover_window_seconds',
  help: "An email's at-most-once window by phase: transport (claim to the transport's answer), record (answer to the outcome written)",
  labelNames: ['phase'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
});
const jobsTotal = metrics.counter({ name: 'mailroom_queue_jobs_total', help: 'Queue jobs finished, by queue and outcome', labelNames: ['queue', 'outcome'] as const });
const jobSeconds = metrics.histogram({
  name: 'mailroom_queue_job_duration_seconds',
  help: 'Queue job processing time, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
});
const importRowsTotal = metrics.counter({ name: 'mailroom_import_rows_total', help: 'CSV import rows, by outcome', labelNames: ['outcome'] as const });
const webhooksTotal = metrics.counter({ name: 'mailroom_webhook_deliveries_total', help: 'Outbound webhook deliveries, by outcome', labelNames: ['outcome'] as const });
const eventWebhookAttemptsTotal = metrics.counter({
  name: 'mailroom_event_webhook_attempts_total',
  help: 'Event webhook attempts, by outcome (succeeded, gone, http_error, redirect, timeout, refused, network_error)',
  labelNames: ['outcome'] as const,
});
const workflowStepsTotal = metrics.counter({ name: 'mailroom_workflow_step_outcomes_total', help: 'Workflow steps run, by step type and outcome', labelNames: ['type', 'outcome'] as const });
const feedbackTotal = metrics.counter({ name: 'mailroom_delivery_feedback_total', help: 'Bounces, complaints and delays received, by kind and detail (bounce type)', labelNames: ['kind', 'detail'] as const });

const smtpSessionsTotal = metrics.counter({ name: 'mailroom_smtp_sessions_total', help: 'SMTP sessions opened, by listener', labelNames: ['listener'] as const });
const smtpSessionsOpen = metrics.gauge({ name: 'mailroom_smtp_sessions_open', help: 'SMTP sessions open now, by listener', labelNames: ['listener'] as const });
const smtpMessagesTotal = metrics.counter({ name: 'mailroom_smtp_messages_total', help: 'SMTP messages accepted (250 after DATA), by listener', labelNames: ['listener'] as const });
const smtpRejectionsTotal = metrics.counter({
  name: 'mailroom_smtp_rejections_total',
  help: 'SMTP refusals (4xx/5xx answers of the application and cut sessions), by listener and reason',
  labelNames: ['listener', 'reason'] as const,
});
const auditWriteFailuresTotal = metrics.counter({
  name: 'mailroom_audit_write_failures_total',
  help: 'Audit log entries that could not be written after their action succeeded (each is logged in full)',
});

export type QueueDepth = Array<{ queue: string; state: string; count: number }>;
let queueDepthSource: (() => Promise<QueueDepth>) | undefined;

/** Called by the process that holds the queues; the gauge asks it on every scrape. */
export function setQueueDepthSource(source: (() => Promise<QueueDepth>) | undefined): void {
  queueDepthSource = source;
}

metrics.gauge({
  name: 'mailroom_queue_depth',
  help: 'Jobs per queue and state (waiting, active, delayed, failed), read at scrape time',
  labelNames: ['queue', 'state'] as const,
  async collect() {
    this.reset();
    if (!queueDepthSource) return;
    try {
      for (const { queue, state, count } of await queueDepthSource()) this.set({ queue, state }, count);
    } catch {
      // The queue backend being down is /health/ready's news; the scrape still answers.
    }
  },
});

export const appMetrics = {
  email(status: string, transport: string): void {
    emailsTotal.inc({ status, transport });
  },
  handover(transport: string, seconds: number): void {
    handoverSeconds.observe({ transport }, seconds);
  },
  handoverWindow(phase: 'transport' | 'record', seconds: number): void {
    handoverWindowSeconds.observe({ phase }, seconds);
  },
  job(queue: string, outcome: 'completed' | 'failed', seconds: number | undefined): void {
    jobsTotal.inc({ queue, outcome });
    if (seconds !== undefined && Number.isFinite(seconds) && seconds >= 0) jobSeconds.observe({ queue, outcome }, seconds);
  },
  importRows(outcome: 'imported' | 'updated' | 'skipped', rows: number): void {
    if (rows > 0) importRowsTotal.inc({ outcome }, rows);
  },
  webhook(outcome: string): void {
    webhooksTotal.inc({ outcome });
  },
  eventWebhook(outcome: string, attempts = 1): void {
    if (attempts > 0) eventWebhookAttemptsTotal.inc({ outcome }, attempts);
  },
  workflowStep(type: string, outcome: string, steps = 1): void {
    if (steps > 0) workflowStepsTotal.inc({ type, outcome }, steps);
  },
  feedback(kind: 'bounce' | 'complaint' | 'delay', detail = ''): void {
    feedbackTotal.inc({ kind, detail });
  },
  /** +1 when a session opens (also counted in the total), -1 when it closes. */
  smtpSession(listener: string, delta: 1 | -1): void {
    if (delta > 0) smtpSessionsTotal.inc({ listener });
    smtpSessionsOpen.inc({ listener }, delta);
  },
  smtpMessage(listener: string): void {
    smtpMessagesTotal.inc({ listener });
  },
  smtpRejection(listener: string, reason: string): void {
    smtpRejectionsTotal.inc({ listener, reason });
  },
  auditWriteFailure(): void {
    auditWriteFailuresTotal.inc();
  },
};
