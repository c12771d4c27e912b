import { createHash } from 'node:crypto';
import { defaultOperators, Liquid, TagToken, TokenKind, Tokenizer, type LiquidOptions } from 'liquidjs';
import { LruCache } from './lru-cache';

/**
 * `a ?? b` yields `b` only when `a` is missing or null (unlike Liquid's `default`, which also
 * replaces false and ""). liquidjs evaluates operators inside `{{ }}` as well as in tags, so a
 * custom operator gives the spec's `{{name ?? "fallback"}}` without rewriting the source.
 */
export const nullishOperator = (left: unknown, right: unknown): unknown => (left === undefined || left === null ? right : left);

/** Tags that would read files from the server's disk; templates are self-contained. */
const FILE_TAGS = ['include', 'render', 'layout', 'block'];

/**
 * liquidjs's own bounds, the first line against a hostile template (docs/rendering.md): render
 * time (ms, checked between nodes; the renderer passes each email's remaining budget), source
 * length (characters), and "memory" as liquidjs counts it: array elements and string lengths its
 * filters and ranges create (a range of 16 M numbers is ~130 MB). What it does not count (output
 * written in a loop) is bounded by the renderer process's heap and wall-clock limits.
 */
export const LIQUID_LIMITS = { renderLimit: 2_000, parseLimit: 2_000_000, memoryLimit: 16 * 1024 * 1024 } as const satisfies Partial<LiquidOptions>;
const LIMITS: Partial<LiquidOptions> = LIQUID_LIMITS;

/** Save-time refusal: a literal range, or literal loops nested in each other, over more items than this. */
export const MAX_LITERAL_ITERATIONS = 100_000;

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
  /** The source parses but loops over more than `MAX_LITERAL_ITERATIONS` items. */
  tooLarge?: true;
}

/** Sources that parsed before: `/v1/send` usually repeats the same body with new data. */
const validSources = new LruCache<string, true>(2_000);

/**
 * Parses `source` and describes the first syntax error (with its line), or the first huge literal
 * range (`literalRangeProblem`), or returns null.
 */
export function checkLiquidSyntax(source: string, engine: Liquid = htmlEngine): LiquidSyntaxProblem | null {
  const key = `${engine === htmlEngine ? 'h' : 't'}:${createHash('sha1').update(source).digest('base64')}`;
  if (validSources.get(key)) return null;
  try {
    engine.parse(source);
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const match = /line:(\d+)/.exec(raw);
    const message = raw.replace(/,?\s*line:\d+,\s*col:\d+/, '').split('\n')[0].trim();
    return { line: match ? Number(match[1]) : null, message };
  }
  const problem = literalRangeProblem(source, engine);
  if (!problem) validSources.set(key, true);
  return problem;
}

/** `(low..high)` with literal numbers; quoted strings are blanked out before matching. */
const LITERAL_RANGE = /\(\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*\)/g;
/** A loop tag's arguments when its collection is a literal range: `i in (1..10) limit: 2`. */
const LOOP_OVER_LITERAL_RANGE = /^\w+\s+in\s+\(\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*\)/;
const QUOTED = /"[^"]*"|'[^']*'/g;
const LOOP_ENDS: Record<string, string> = { for: 'endfor', tablerow: 'endtablerow' };

/** Items of liquidjs's `range(+low, +high + 1)`. */
const rangeSize = (low: string, high: string): number => Math.max(0, Math.ceil(Number(high) + 1 - Number(low)));

/**
 * The obvious hostile cases, refused at save time: a literal range (`(1..60000000)`, in a loop or
 * anywhere in the markup) or literal loops nested in each other whose items multiply past
 * `MAX_LITERAL_ITERATIONS`. liquidjs builds a range as an array before looping, so such a template
 * costs memory and time whatever the data. Ranges bounded by data (`(1..n)`) pass; the render's
 * own bounds stop them (docs/rendering.md). `source` must parse.
 */
export function literalRangeProblem(source: string, engine: Liquid = htmlEngine): LiquidSyntaxProblem | null {
  const tokens = new Tokenizer(source, engine.options.operators).readTopLevelTokens(engine.options);
  const loops: Array<{ end: string; items: number }> = [];
  let nested = 1;
  let inComment = false;
  for (const token of tokens) {
    const tag = token.kind === TokenKind.Tag ? (token as TagToken) : null;
    if (inComment) {
      inComment = tag?.name !== 'endcomment';
      continue;
    }
    if (tag?.name === 'comment') inComment = true;
    if (tag?.name === 'comment' || tag?.name === '#' || (!tag && token.kind !== TokenKind.Output)) continue;
    const markup = (token as TagToken).content.replace(QUOTED, '""');
    const line = token.getPosition()[0];
    for (const [range, low, high] of markup.matchAll(LITERAL_RANGE)) {
      const items = rangeSize(low, high);
      if (items > MAX_LITERAL_ITERATIONS) return { line, tooLarge: true, message: `the range ${range.replace(/\s+/g, '')} has ${items} items; a template may loop over at most ${MAX_LITERAL_ITERATIONS}` };
    }
    if (tag && LOOP_ENDS[tag.name]) {
      const literal = LOOP_OVER_LITERAL_RANGE.exec(tag.args.replace(QUOTED, '""'));
      const items = literal ? Math.max(rangeSize(literal[1], literal[2]), 1) : 1;
      loops.push({ end: LOOP_ENDS[tag.name], items });
      nested *= items;
      if (nested > MAX_LITERAL_ITERATIONS) return { line, tooLarge: true, message: `nested loops run ${nested} times; a template may loop over at most ${MAX_LITERAL_ITERATIONS} items in all` };
    } else if (tag && tag.name === loops.at(-1)?.end) {
      nested /= loops.pop()!.items;
    }
  }
  return null;
}
