import { ChildProcess, fork } from 'node:child_process';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { extname, join } from 'node:path';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { logger } from '../../../platform/logging/logger';
import type { BatchRequest, ChildMessage } from './render-child';
import { LIQUID_LIMITS, type LiquidSyntaxProblem } from './liquid-engine';
import { CheckSource, EmailRenderJob, packJobs, RenderedEmail, RenderJob, RenderOutcome } from './render-job';
import { RenderQueue, URGENT } from './render-queue';

/** A template's own failure (a Liquid error, its time or memory bound): final, its email fails with `render_error`. */
export class RenderFailedError extends Error {
  override readonly name = 'RenderFailedError';
}

/** The renderer process could not be started, or stopped with the service: not the template's fault, so worth a retry. */
export class RendererUnavailableError extends Error {
  override readonly name = 'RendererUnavailableError';
}

export interface RenderPoolOptions {
  /** Renderer processes (each renders one batch at a time). */
  processes: number;
  /** Each renderer's V8 old-generation bound (`--max-old-space-size`). */
  heapMb: number;
  /** Liquid time per job (subject and body together), liquidjs's own check between nodes. */
  renderMs: number;
  /** Wall-clock bound per job (Liquid, markdown, text part): past it the renderer is killed and replaced. */
  wallMs: number;
  /** Jobs per batch. */
  batchMax: number;
  /** A batch starts no further job after this long (ms): the rest wait for their project's next turn (fairness between projects). */
  sliceMs: number;
  /** An idle renderer exits after this long; the next render starts one again. */
  idleMs: number;
  /** How long a renderer may take to start. */
  startMs: number;
  /** Added to the renderers' nice value: under CPU contention the API's process runs first. */
  niceIncrement: number;
}

export const RENDER_POOL_DEFAULTS: RenderPoolOptions = {
  processes: Math.min(2, Math.max(1, availableParallelism() - 1)),
  heapMb: 192,
  renderMs: LIQUID_LIMITS.renderLimit,
  wallMs: 5_000,
  batchMax: 32,
  sliceMs: 200,
  idleMs: 60_000,
  startMs: 60_000,
  niceIncrement: 10,
};

/** The renderer's entry beside this file: `.js` in dist/, `.ts` from the sources (Jest, `node -r ts-register`), loaded through SWC. */
function rendererEntry(): { file: string; execArgv: string[] } {
  const ext = extname(__filename);
  const file = join(__dirname, `render-child${ext}`);
  if (ext !== '.ts') return { file, execArgv: [] };
  return { file, execArgv: ['--require', join(__dirname, '..', '..', '..', '..', 'test', 'support', 'ts-register.js')] };
}

/** The environment without a `--max-old-space-size` in NODE_OPTIONS (the service's own bound), so the renderer's applies. */
function rendererEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (env.NODE_OPTIONS) env.NODE_OPTIONS = env.NODE_OPTIONS.replace(/--max-old-space-size(=|\s+)\S+/g, '').trim();
  return env;
}

const STDERR_TAIL = 4_096;

interface Task {
  id: number;
  size: number;
  resolve: (results: Array<RenderOutcome | undefined>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One renderer process: started on first use, killed and started again after a job overruns its
 * wall-clock bound or after the process dies (its heap bound), stopped when idle.
 */
class Renderer {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private task: Task | null = null;
  private stderr = '';
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;
  private inUse = false;

  constructor(
    private readonly options: RenderPoolOptions,
    private readonly onReplaced: (reason: string) => void,
  ) {}

  get busy(): boolean {
    return this.inUse;
  }

  /**
   * Renders `jobs` in order. A job's own failure is its outcome. When the process dies or a job
   * overruns `wallMs`, the process is killed: a lone job gets that as its outcome; in a batch
   * every job is left `undefined`, to be run again alone (so only the culprit fails). The answer
   * is shorter than `jobs` when the batch used up `sliceMs`: the rest were not started.
   */
  async run(jobs: RenderJob[]): Promise<Array<RenderOutcome | undefined>> {
    if (this.closed) throw new RendererUnavailableError('the renderer is stopped');
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.inUse = true;
    let child: ChildProcess | undefined;
    try {
      child = await this.started();
      const id = this.nextId++;
      const running = child;
      return await new Promise<Array<RenderOutcome | undefined>>((resolve, reject) => {
        this.task = { id, size: jobs.length, resolve, reject, timer: this.wallTimer(running) };
        running.ref();
        running.channel?.ref();
        const request: BatchRequest = { id, budgetMs: this.options.renderMs, sliceMs: this.options.sliceMs, ...packJobs(jobs) };
        running.send(request, (err) => {
          if (err && this.task?.id === id) this.fail(running, `could not reach the renderer: ${err.message}`, true);
        });
      });
    } finally {
      this.task = null;
      this.inUse = false;
      if (child && this.child === child) {
        child.unref();
        child.channel?.unref();
        this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs).unref();
      }
    }
  }

  /** Starts the process ahead of the first render (it still stops after `idleMs` without one). */
  warm(): Promise<void> {
    if (this.closed || this.child) return Promise.resolve();
    return this.started().then((child) => {
      if (this.inUse || this.child !== child || this.idleTimer) return;
      this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs).unref();
    });
  }

  close(): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.task?.reject(new RendererUnavailableError('the renderer stopped with the service'));
    this.stop();
  }

  private wallTimer(child: ChildProcess): NodeJS.Timeout {
    return setTimeout(() => this.fail(child, `the render ran out of time: over ${this.options.wallMs / 1000} s of wall-clock time`, true), this.options.wallMs);
  }

  /** The process overran or died during the current task: it is gone, the task settles as `run` describes. */
  private fail(child: ChildProcess, reason: string, kill = false): void {
    const task = this.task;
    if (this.child === child) this.forget();
    if (kill) child.kill('SIGKILL');
    if (!task) return;
    clearTimeout(task.timer);
    this.onReplaced(reason);
    if (this.closed) task.reject(new RendererUnavailableError('the renderer stopped with the service'));
    else task.resolve(task.size === 1 ? [{ ok: false, error: reason }] : new Array<undefined>(task.size).fill(undefined));
  }

  private started(): Promise<ChildProcess> {
    if (!this.ready) this.ready = this.spawn();
    const ready = this.ready;
    return ready.then(
      () => this.child!,
      (err: unknown) => {
        if (this.ready === ready) this.ready = null;
        throw err;
      },
    );
  }

  private spawn(): Promise<void> {
    const { file, execArgv } = rendererEntry();
    const child = fork(file, [], {
      execArgv: [...execArgv, `--max-old-space-size=${this.options.heapMb}`],
      env: rendererEnv(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    this.stderr = '';
    if (child.pid !== undefined && this.options.niceIncrement > 0) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + this.options.niceIncrement));
      } catch {
        // Not permitted on this platform: the renderer runs at the service's priority.
      }
    }
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.child === child) this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    (child.stderr as unknown as { unref?: () => void }).unref?.();
    return new Promise<void>((resolve, reject) => {
      const startTimer = setTimeout(() => {
        reject(new RendererUnavailableError(`the renderer did not start within ${this.options.startMs / 1000} s`));
        if (this.child === child) this.forget();
        child.kill('SIGKILL');
      }, this.options.startMs);
      child.on('message', (message: ChildMessage) => {
        if ('ready' in message) {
          clearTimeout(startTimer);
          child.unref();
          child.channel?.unref();
          resolve();
          return;
        }
        const task = this.task;
        if (!task || task.id !== message.id || this.child !== child) return;
        clearTimeout(task.timer);
        if ('at' in message) task.timer = this.wallTimer(child);
        else task.resolve(message.results);
      });
      child.on('error', (err) => {
        clearTimeout(startTimer);
        reject(new RendererUnavailableError(`the renderer could not start: ${err.message}`));
        if (this.child === child) this.fail(child, `the renderer failed: ${err.message}`, true);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(startTimer);
        reject(new RendererUnavailableError(`the renderer exited while starting (${code ?? signal}): ${this.stderr.trim().slice(-500)}`));
        if (this.child !== child) return;
        const oom = /out of memory|heap limit|allocation failed/i.test(this.stderr);
        this.fail(child, oom ? `the render ran out of memory: over the renderer's ${this.options.heapMb} MB heap` : `the renderer exited during the render (${code ?? signal})`);
      });
    });
  }

  private forget(): void {
    this.child = null;
    this.ready = null;
  }

  private stop(): void {
    const child = this.child;
    this.forget();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * Every Liquid render of the service runs here, off the API's event loop, in renderer processes
 * with a heap bound and a wall-clock bound per job (docs/rendering.md): a hostile template costs
 * at most one renderer its heap and `wallMs` of time, and fails its own job only. Concurrent
 * calls share round trips (a campaign's emails go in batches of `batchMax`), and projects take
 * turns (`RenderQueue`): one project's slow renders cannot hold back another's email for longer
 * than the batches in flight, each cut at `sliceMs`. Save-time Liquid checks go first.
 * Processes start on first use; the pool is stopped with the application.
 */
@Injectable()
export class RenderPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = logger('render-pool');
  readonly options: RenderPoolOptions;
  private readonly renderers: Renderer[];
  private readonly queue: RenderQueue<RenderJob, RenderOutcome>;
  readonly stats = { replaced: 0 };

  constructor(
    options: Partial<RenderPoolOptions> = {},
    private readonly warmOnStart = false,
  ) {
    this.options = { ...RENDER_POOL_DEFAULTS, ...options };
    this.renderers = Array.from({ length: this.options.processes }, () => new Renderer(this.options, (reason) => this.replaced(reason)));
    this.queue = new RenderQueue<RenderJob, RenderOutcome>({
      runBatch: (jobs) => this.free().run(jobs),
      max: this.options.batchMax,
      maxInFlight: this.options.processes,
    });
  }

  /**
   * Subject, HTML and text part of one email of `projectId` (null: the service's own mail);
   * throws `RenderFailedError` when its template fails.
   */
  async renderEmail(projectId: string | null, job: Omit<EmailRenderJob, 'kind'>): Promise<RenderedEmail> {
    return (await this.run(projectId ?? '', { kind: 'email', ...job })) as RenderedEmail;
  }

  /** Liquid strings of `projectId` rendered without HTML escaping; throws `RenderFailedError` when one fails. */
  async renderStrings(projectId: string, sources: string[], variables: Record<string, unknown>): Promise<string[]> {
    if (sources.length === 0) return [];
    return (await this.run(projectId, { kind: 'strings', sources, variables })) as string[];
  }

  /**
   * The save-time check (`checkLiquidSyntax`) of each source, in a renderer: a request's body is
   * parsed off the API's event loop. Ahead of every render waiting.
   */
  async checkLiquid(sources: CheckSource[]): Promise<Array<LiquidSyntaxProblem | null>> {
    return (await this.run(URGENT, { kind: 'check', sources })) as Array<LiquidSyntaxProblem | null>;
  }

  /**
   * Processes that send email start a renderer with the application, so the first emails do not
   * wait for one to start together (a cold start held them back and then let them go at once,
   * past the `SEND_RATE_PER_SECOND` spread). Not awaited: a failure is the first render's to report.
   */
  onApplicationBootstrap(): void {
    if (!this.warmOnStart) return;
    this.renderers[0]?.warm().catch((err: unknown) => this.log.warn({ err }, 'starting a renderer ahead of the first render failed'));
  }

  onApplicationShutdown(): void {
    for (const renderer of this.renderers) renderer.close();
  }

  private async run(tenant: string | typeof URGENT, job: RenderJob): Promise<RenderedEmail | string[] | Array<LiquidSyntaxProblem | null>> {
    const outcome = await this.queue.run(tenant, job);
    if (!outcome.ok) throw new RenderFailedError(outcome.error);
    return outcome.value;
  }

  /** The queue runs at most `processes` batches at once, each on one renderer at a time: one is always free. */
  private free(): Renderer {
    const renderer = this.renderers.find((r) => !r.busy);
    if (!renderer) throw new RendererUnavailableError('no free renderer');
    return renderer;
  }

  private replaced(reason: string): void {
    this.stats.replaced++;
    this.log.warn({ reason }, 'a renderer process was stopped by a render; the next render starts another');
  }
}
