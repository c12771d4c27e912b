import { markdownToHtml } from './markdown';
import { checkLiquidSyntax, htmlEngine, LIQUID_LIMITS, type LiquidSyntaxProblem, textEngine } from './liquid-engine';
import { TemplateRenderer } from './template-renderer';

/**
 * The work the renderer process does (docs/rendering.md): plain data in, plain data out, so a job
 * crosses the process boundary as it is. Nothing here touches Nest, the database or the network.
 */

/** One email's content: subject and body rendered with its variables (when `liquid`), a markdown body converted, and the text part made (unless given). */
export interface EmailRenderJob {
  kind: 'email';
  subject: string;
  body: string;
  liquid: boolean;
  markdown: boolean;
  text: string | null;
  variables: Record<string, unknown>;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Liquid strings rendered without HTML escaping (a workflow webhook's url, header values and body strings). */
export interface StringsRenderJob {
  kind: 'strings';
  sources: string[];
  variables: Record<string, unknown>;
}

/** A source to check at save time: a subject (a header, `textEngine`) or a body. */
export interface CheckSource {
  source: string;
  subject: boolean;
}

/** Save-time checks (`checkLiquidSyntax`) of untrusted sources, off the API's event loop. */
export interface CheckRenderJob {
  kind: 'check';
  sources: CheckSource[];
}

export type RenderJob = EmailRenderJob | StringsRenderJob | CheckRenderJob;
export type RenderOutcome = { ok: true; value: RenderedEmail | string[] | Array<LiquidSyntaxProblem | null> } | { ok: false; error: string };

/**
 * Runs one job, never throwing: a template's failure (syntax, a filter's error, liquidjs's time or
 * memory limit) is the outcome of that job alone. Subject and body share `budgetMs`.
 */
export function runRenderJob(renderer: TemplateRenderer, job: RenderJob, budgetMs: number = LIQUID_LIMITS.renderLimit): RenderOutcome {
  try {
    if (job.kind === 'check') return { ok: true, value: job.sources.map((s) => checkLiquidSyntax(s.source, s.subject ? textEngine : htmlEngine)) };
    if (job.kind === 'strings') {
      const started = Date.now();
      const value = job.sources.map((source) => textEngine.parseAndRenderSync(source, job.variables, { renderLimit: Math.max(1, budgetMs - (Date.now() - started)) }) as string);
      return { ok: true, value };
    }
    const rendered = job.liquid ? renderer.renderSource({ subject: job.subject, body: job.body }, job.variables, budgetMs) : { subject: job.subject, html: job.body };
    // A markdown body is converted once its Liquid is rendered (see markdown.ts); then the plain-text part.
    const html = job.markdown ? markdownToHtml(rendered.html) : rendered.html;
    return { ok: true, value: { subject: rendered.subject, html, text: job.text ?? renderer.toText(html) } };
  } catch (err) {
    return { ok: false, error: describeRenderError(err, budgetMs) };
  }
}

/** liquidjs's messages, in the words the email's `error` shows (first line, without the source excerpt). */
export function describeRenderError(err: unknown, budgetMs: number): string {
  const raw = err instanceof Error ? err.message : String(err);
  const line = /line:(\d+)/.exec(raw)?.[1];
  const where = line ? ` (line ${line})` : '';
  if (raw.includes('render limit exceeded')) return `the render ran out of time: over ${budgetMs} ms${where}`;
  if (raw.includes('memory alloc limit exceeded')) return `the render would use too much memory: over ${LIQUID_LIMITS.memoryLimit} items or characters${where}`;
  return raw.replace(/,?\s*line:\d+,\s*col:\d+/, '').split('\n')[0].trim().slice(0, 500) + where;
}

/** A batch as sent to the renderer process: the subjects and bodies of its emails once each (a campaign's batch shares one). */
export interface PackedBatch {
  strings: string[];
  jobs: Array<(Omit<EmailRenderJob, 'subject' | 'body'> & { subject: number; body: number }) | StringsRenderJob | CheckRenderJob>;
}

export function packJobs(jobs: RenderJob[]): PackedBatch {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ref = (value: string): number => {
    let i = index.get(value);
    if (i === undefined) index.set(value, (i = strings.push(value) - 1));
    return i;
  };
  return { strings, jobs: jobs.map((job) => (job.kind === 'email' ? { ...job, subject: ref(job.subject), body: ref(job.body) } : job)) };
}

export function unpackJobs(batch: PackedBatch): RenderJob[] {
  return batch.jobs.map((job) => (job.kind === 'email' ? { ...job, subject: batch.strings[job.subject], body: batch.strings[job.body] } : job));
}
