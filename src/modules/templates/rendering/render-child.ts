import { performance } from 'node:perf_hooks';
import { PackedBatch, RenderOutcome, runRenderJob, unpackJobs } from './render-job';
import { TemplateRenderer } from './template-renderer';

/**
 * The renderer process (`RenderPool` forks it; docs/rendering.md). It renders the batches its
 * parent sends, one at a time, and answers each with one outcome per job. Before a job that starts
 * `PROGRESS_MS` or more after its batch's last report, it reports the job's index, so the parent's
 * wall-clock bound applies to each job rather than to the whole batch. A job that would start
 * `sliceMs` or more into the batch is not run: the answer stops short, and the pool gives the
 * renderer to another project's jobs before these (`RenderQueue`). Its heap is bounded by its
 * own `--max-old-space-size`: a render that outgrows it kills this process only.
 */

export interface BatchRequest extends PackedBatch {
  id: number;
  budgetMs: number;
  /** No job starts after this long into the batch: the answer then stops short, the rest are not run. */
  sliceMs: number;
}

export type ChildMessage = { ready: true } | { id: number; at: number } | { id: number; results: RenderOutcome[] };

const PROGRESS_MS = 20;

const send = (message: ChildMessage) => process.send!(message);
const renderer = new TemplateRenderer();

process.on('message', (request: BatchRequest) => {
  const jobs = unpackJobs(request);
  const results: RenderOutcome[] = [];
  const started = performance.now();
  let reported = started;
  for (let i = 0; i < jobs.length; i++) {
    if (i > 0 && performance.now() - started >= request.sliceMs) break;
    if (i > 0 && performance.now() - reported >= PROGRESS_MS) {
      send({ id: request.id, at: i });
      reported = performance.now();
    }
    results.push(runRenderJob(renderer, jobs[i], request.budgetMs));
  }
  send({ id: request.id, results });
});

// The parent went away (stopped, or killed): nothing is left to render for.
process.on('disconnect', () => process.exit(0));
// A renderer lives and dies with its parent: a Ctrl-C in a terminal (the whole process group) or a
// service manager's SIGTERM to every process of the service must not end a render that is in
// flight while the parent drains; the parent stops its renderers when it stops.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
send({ ready: true });
