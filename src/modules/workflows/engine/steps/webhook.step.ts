import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../../../config/config';
import { InjectConfig } from '../../../../config/config.module';
import { appMetrics } from '../../../../platform/metrics/metrics';
import { ContactsService } from '../../../contacts';
import type { Contact } from '../../../contacts';
import { ProjectsService } from '../../../projects';
import { RenderFailedError, RenderPool } from '../../../templates';
import type { GraphStep } from '../../graph/workflow-graph';
import { OutboundHttp, OutboundRefused, OutboundTimedOut } from '../../../../platform/net/outbound-http';
import { webhookSignature } from '../../webhook/webhook-signature';
import { WorkflowsService } from '../../workflows.service';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { executionContact } from './execution-contact';
import { storedConfig } from '../../graph/step-config';

/** docs/decisions.md#workflows: 5xx and timeouts are retried 3 times with backoff, then FAILED; 4xx fails at once. */
export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

export interface WebhookScope {
  id: string;
  project_id: string;
  workflow_id: string;
  /** The workflow's name as it is now (a rename makes no new version). */
  workflowName: string;
  contact: Contact;
  context: Record<string, unknown>;
  event: Record<string, unknown>;
}

/** What a step keeps of an answer's body as its output (the client reads 2 KB at most). */
const OUTPUT_BODY_LIMIT = 2_000;

interface StepResponse {
  status: number;
  body: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const isLiquid = (value: string) => value.includes('{{') || value.includes('{%');

/** The Liquid strings of a JSON value, in the order `fillStrings` puts their renderings back. */
function liquidStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (isLiquid(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) liquidStrings(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) liquidStrings(v, out);
  }
  return out;
}

/** `value` with each Liquid string replaced by the next of `rendered` (keys stay as written). */
function fillStrings(value: unknown, rendered: string[]): unknown {
  if (typeof value === 'string') return isLiquid(value) ? rendered.shift() : value;
  if (Array.isArray(value)) return value.map((v) => fillStrings(v, rendered));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fillStrings(v, rendered);
    return out;
  }
  return value;
}

/** The WEBHOOK step: renders url, header values and body, sends them signed, and retries 5xx and timeouts. */
@Injectable()
export class WebhookStep implements StepExecutor, OnApplicationShutdown {
  readonly type = 'WEBHOOK';
  readonly control = false;
  private readonly clients = new Map<boolean, OutboundHttp>();

  constructor(
    private readonly renderer: RenderPool,
    @InjectConfig() private readonly config: AppConfig,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
    private readonly workflows: WorkflowsService,
  ) {}

  async execute({ step, ex, outside }: StepContext): Promise<StepOutcome> {
    const contact = await executionContact(this.contacts, ex);
    const project = await this.projects.findById(ex.project_id);
    const workflow = await this.workflows.findOne(ex.project_id, ex.workflow_id);
    // The request's wait (up to its timeout and retries) holds no slot: it is not this process's work.
    return outside(() => this.run(step, { ...ex, workflowName: workflow.name, contact }, project.webhookSecret, this.config.webhookAllowPrivate));
  }

  private async run(step: GraphStep, scope: WebhookScope, secret: string, allowPrivate: boolean): Promise<StepOutcome> {
    const c = storedConfig(step, 'WEBHOOK');
    const contact = { id: scope.contact.id, email: scope.contact.email, subscribed: scope.contact.subscribed, data: scope.contact.data };
    const execution = { id: scope.id, context: scope.context };
    // docs/decisions.md#workflows: in Liquid `workflow.<key>` is the execution context (as in CONDITION and SEND_EMAIL);
    // the default body names the workflow itself, so a receiver can tell which one called.
    const vars = { ...scope.contact.data, contact, event: scope.event, workflow: scope.context, execution: { ...execution, workflowId: scope.workflow_id } };
    const method = (c.method as string | undefined) ?? 'POST';
    // url, header values and body strings: one job in the renderer process (docs/rendering.md).
    const templated = [c.url, c.headers ?? {}, c.body];
    let rendered: string[];
    try {
      rendered = await this.renderer.renderStrings(scope.project_id, liquidStrings(templated), vars);
    } catch (err) {
      if (!(err instanceof RenderFailedError)) throw err;
      return { kind: 'end', execution: 'FAILED', status: 'FAILED', output: null, error: `render_error: ${err.message}`, exitReason: null };
    }
    const [renderedUrl, headers, renderedBody] = fillStrings(templated, rendered) as [unknown, Record<string, string>, unknown];
    const url = String(renderedUrl);
    const rawBody = c.body === undefined ? { contact, workflow: { id: scope.workflow_id, name: scope.workflowName }, execution, event: scope.event } : renderedBody;
    const body = method === 'GET' ? null : typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody);
    const client = this.client(allowPrivate);

    let last: StepResponse | null = null;
    let lastError: string | null = null;
    for (let attempt = 0; attempt <= WEBHOOK_RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await sleep(WEBHOOK_RETRY_DELAYS_MS[attempt - 1]);
      try {
        last = await this.sendSigned(client, { url, method, headers, body, secret });
        lastError = null;
        appMetrics.webhook(`${Math.floor(last.status / 100)}xx`);
        if (last.status < 500) break;
      } catch (err) {
        if (err instanceof OutboundRefused) {
          appMetrics.webhook('refused');
          return { kind: 'end', execution: 'FAILED', status: 'FAILED', output: { attempts: attempt + 1 }, error: `webhook refused: ${err.message}`, exitReason: null };
        }
        const timeout = err instanceof OutboundTimedOut;
        appMetrics.webhook(timeout ? 'timeout' : 'error');
        last = null;
        lastError = timeout ? 'webhook timed out after 10 s' : `webhook request failed: ${(err as Error).message}`;
      }
    }
    const attempts = WEBHOOK_RETRY_DELAYS_MS.length + 1;
    if (last && last.status < 400) return { kind: 'next', status: 'COMPLETED', output: { status: last.status, body: last.body }, exit: null };
    const output = last ? { status: last.status, body: last.body } : { attempts };
    const error = last ? `webhook answered ${last.status}` : (lastError ?? 'webhook failed');
    return { kind: 'end', execution: 'FAILED', status: 'FAILED', output, error, exitReason: null };
  }

  /**
   * One request, signed with `X-Mailroom-Timestamp` and `X-Signature` (docs/decisions.md#workflows);
   * redirects followed (each hop checked); the output keeps 2,000 characters of the body.
   */
  private async sendSigned(client: OutboundHttp, req: { url: string; method: string; headers: Record<string, string>; body: string | null; secret: string }): Promise<StepResponse> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'user-agent': 'Mailroom-Webhook/1',
      ...(req.body !== null ? { 'content-type': 'application/json' } : {}),
      ...lowerKeys(req.headers),
      'x-mailroom-timestamp': String(timestamp),
      'x-signature': webhookSignature(req.secret, timestamp, req.body ?? ''),
    };
    const response = await client.send({ url: req.url, method: req.method, headers, body: req.body }, { followRedirects: true });
    const text = response.body;
    const clipped = text.length > OUTPUT_BODY_LIMIT || response.truncated;
    return { status: response.status, body: clipped ? `${text.slice(0, OUTPUT_BODY_LIMIT)}…` : text };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }

  private client(allowPrivate: boolean): OutboundHttp {
    let client = this.clients.get(allowPrivate);
    if (!client) this.clients.set(allowPrivate, (client = new OutboundHttp(allowPrivate)));
    return client;
  }
}

const lowerKeys = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
