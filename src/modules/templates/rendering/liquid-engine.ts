import { createHash } from 'node:crypto';
import { defaultOperators, Liquid, type LiquidOptions } from 'liquidjs';
import { LruCache } from './lru-cache';

/**
 * `a ?? b` yields `b` only when `a` is missing or null (unlike Liquid's `default`, which also
 * replaces false and ""). liquidjs evaluates operators inside `{{ }}` as well as in tags, so a
 * custom operator gives the spec's `{{name ?? "fallback"}}` without rewriting the source.
 */
export const nullishOperator = (left: unknown, right: unknown): unknown => (left === undefined || left === null ? right : left);

/** Tags that would read files from the server's disk; templates are self-contained. */
const FILE_TAGS = ['include', 'render', 'layout', 'block'];

/** Bounds one render so a hostile template cannot hold a worker: time (ms) and allocated bytes. */
const LIMITS: Partial<LiquidOptions> = { renderLimit: 2_000, parseLimit: 2_000_000, memoryLimit: 64 * 1024 * 1024 };

function createEngine(outputEscape: LiquidOptions['outputEscape']): Liquid {
  const engine = new Liquid({
    ...LIMITS,
    outputEscape,
    ownPropertyOnly: true,
    strictFilters: true,
    operators: { ...defaultOperators, '??': nullishOperator as never },
  });
  const tags = engine.tags as unknown as Record<string, unknown>;
  for (const tag of FILE_TAGS) delete tags[tag];
  return engine;
}

/** Body engine: every `{{ }}` value is HTML-escaped unless piped through `| raw`. */
export const htmlEngine = createEngine('escape');

/** Subject engine: a header, not HTML, so values are not escaped (CR/LF are stripped after rendering). */
export const textEngine = createEngine(undefined);

export interface LiquidSyntaxProblem {
  line: number | null;
  message: string;
}

/** Sources that parsed before: `/v1/send` usually repeats the same body with new data. */
const validSources = new LruCache<string, true>(2_000);

/** Parses `source` and describes the first syntax error (with its line), or returns null. */
export function checkLiquidSyntax(source: string, engine: Liquid = htmlEngine): LiquidSyntaxProblem | null {
  const key = `${engine === htmlEngine ? 'h' : 't'}:${createHash('sha1').update(source).digest('base64')}`;
  if (validSources.get(key)) return null;
  try {
    engine.parse(source);
    validSources.set(key, true);
    return null;
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const match = /line:(\d+)/.exec(raw);
    const message = raw.replace(/,?\s*line:\d+,\s*col:\d+/, '').split('\n')[0].trim();
    return { line: match ? Number(match[1]) : null, message };
  }
}
