import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { compile as compileHtmlToText } from 'html-to-text';
import type { Template } from 'liquidjs';
import { htmlEngine, LIQUID_LIMITS, parseLiquid, textEngine } from './liquid-engine';
import { LruCache } from './lru-cache';

export interface TemplateSource {
  subject: string;
  body: string;
}

export interface CompiledTemplate {
  subject: Template[];
  body: Template[];
  /** Characters of the source: what the cache weighs it by (a compiled template keeps its source). */
  chars: number;
}

export interface RenderedContent {
  subject: string;
  html: string;
}

const CACHE_SIZE = 1_000;
/**
 * Characters of source the compiled cache and the recent text parts keep in all. A compiled
 * template holds its source (and more): counted in entries only, a thousand distinct 1 MB bodies
 * outgrew the renderer's 192 MB heap after about a hundred (issue 51.6). 16 M characters keep
 * the cache within ~40 MB whatever the bodies, and a campaign's one large body still hits.
 */
const CACHE_CHARS = 16_000_000;
/**
 * Text parts of the last few converted HTML bodies. A campaign or workflow step whose body is the
 * same for every recipient (personal links are added after this step) converts once, not per email.
 * Looked up by `===` over a short list, not a hash map: hashing every personalised body (the common
 * case, which never hits) costs a fifth of a conversion, while comparing against a different body
 * usually stops at its length or its first differing character.
 */
const RECENT_TEXTS = 8;

const toPlainText = compileHtmlToText({
  wordwrap: 78,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['<', '>'] } },
    { selector: 'table', format: 'dataTable' },
  ],
});

/**
 * Compiles subject and body once per distinct source and renders them per recipient.
 * Cached by a digest of the source: a template's digest changes exactly when an update
 * (new `updatedAt`) changes its text, and inline `/v1/send` content shares the same cache.
 * The service renders in the renderer process (`RenderPool`, docs/rendering.md), never on the
 * API's event loop; this class is what that process runs.
 */
export class TemplateRenderer {
  private readonly cache = new LruCache<string, CompiledTemplate>(CACHE_SIZE, { weight: (c) => c.chars, maxWeight: CACHE_CHARS });
  private readonly recentTexts: Array<{ html: string; text: string }> = [];

  /** Throws liquidjs's ParseError for invalid sources (callers validate at the API edge first). */
  compile(source: TemplateSource): CompiledTemplate {
    const key = createHash('sha1').update(source.subject).update('\u0000').update(source.body).digest('base64');
    let compiled = this.cache.get(key);
    if (!compiled) {
      compiled = { subject: parseLiquid(source.subject, textEngine), body: parseLiquid(source.body, htmlEngine), chars: source.subject.length + source.body.length };
      this.cache.set(key, compiled);
    }
    return compiled;
  }

  /**
   * `variables` are exposed at the top level and again as `data` (for `data["first name"]`).
   * Subject and body share one time budget (ms): liquidjs's render limit, checked between nodes.
   */
  render(compiled: CompiledTemplate, variables: Record<string, unknown>, budgetMs: number = LIQUID_LIMITS.renderLimit): RenderedContent {
    const scope = { ...variables, data: variables };
    const started = performance.now();
    const subject = textEngine.renderSync(compiled.subject, scope, { renderLimit: budgetMs }) as string;
    const html = htmlEngine.renderSync(compiled.body, scope, { renderLimit: Math.max(1, budgetMs - (performance.now() - started)) }) as string;
    return { subject: cleanSubject(subject), html };
  }

  renderSource(source: TemplateSource, variables: Record<string, unknown>, budgetMs?: number): RenderedContent {
    return this.render(this.compile(source), variables, budgetMs);
  }

  /** The text/plain alternative generated from the rendered HTML. */
  toText(html: string): string {
    const recent = this.recentTexts;
    for (let i = 0; i < recent.length; i++) {
      if (recent[i].html !== html) continue;
      const [hit] = recent.splice(i, 1);
      recent.unshift(hit);
      return hit.text;
    }
    const text = toPlainText(html);
    recent.unshift({ html, text });
    let chars = 0;
    const kept = recent.findIndex((entry) => (chars += entry.html.length + entry.text.length) > CACHE_CHARS);
    if (kept !== -1) recent.length = Math.max(1, kept);
    if (recent.length > RECENT_TEXTS) recent.pop();
    return text;
  }
}

/** A subject is one header line: rendered values must not smuggle line breaks into it. */
export function cleanSubject(subject: string): string {
  return subject.replace(/[\r\n]+/g, ' ').trim();
}
