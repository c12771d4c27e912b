import { createHash } from 'node:crypto';
import { defaultOperators, Liquid, Parser, TagToken, type Template, type TopLevelToken, TokenKind, Tokenizer, type LiquidOptions } from 'liquidjs';
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

/**
 * Save-time refusal: tags and outputs (`{% %}`, `{{ }}`) in one field. liquidjs's parse costs
 * about 10 µs each; this many keep the check of the largest body near 50 ms (docs/rendering.md).
 */
export const MAX_LIQUID_TAGS = 5_000;

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
  /** The source has more than `MAX_LIQUID_TAGS` tags and outputs. */
  tooManyTags?: true;
}

/** A problem in the words of a 422 item. */
export function describeLiquidProblem(problem: LiquidSyntaxProblem): string {
  const what = problem.tooLarge ? 'Template loops too large' : problem.tooManyTags ? 'Template too large' : 'Invalid template syntax';
  return problem.line ? `${what} on line ${problem.line}: ${problem.message}` : `${what}: ${problem.message}`;
}

/**
 * Top-level tokens as liquidjs's parser consumes them (`shift()` and `length` only), in O(1) per
 * token: liquidjs shifts a plain array, which V8 does by moving the whole rest of a large array,
 * so 40,000 tags cost seconds (issue 51). The array itself is left intact.
 */
class TokenQueue {
  private next = 0;
  constructor(private readonly tokens: TopLevelToken[]) {}
  get length(): number {
    return this.tokens.length - this.next;
  }
  shift(): TopLevelToken | undefined {
    return this.next < this.tokens.length ? this.tokens[this.next++] : undefined;
  }
}

/**
 * liquidjs's tokenizer with its markup scan done by `indexOf`: liquidjs tests every character of
 * the HTML between tags against each delimiter (about 30 ns a character, 60 ms for 2 MB). Each
 * delimiter's next occurrence is remembered, so the scan stays linear however many tokens there are.
 */
/** liquidjs's HTML token class, which it does not export: the class of a token its tokenizer makes. */
type HTMLToken = ReturnType<Tokenizer['readHTMLToken']>;
const HTMLTokenClass = new Tokenizer('').readHTMLToken([]).constructor as new (input: string, begin: number, end: number, file?: string) => HTMLToken;

class MarkupTokenizer extends Tokenizer {
  private readonly nextAt = new Map<string, number>();

  override readHTMLToken(stopStrings: string[]): HTMLToken {
    const begin = this.p;
    let end = this.N;
    for (const stop of stopStrings) {
      let at = this.nextAt.get(stop);
      if (at === undefined || (at !== -1 && at < begin)) this.nextAt.set(stop, (at = this.input.indexOf(stop, begin)));
      if (at !== -1 && at < end) end = at;
    }
    this.p = end;
    return new HTMLTokenClass(this.input, begin, end, this.file);
  }
}

/** `source`'s top-level tokens, refused past liquidjs's source length bound (its own `parse` checks it the same way). */
function tokenize(source: string, engine: Liquid): TopLevelToken[] {
  if (source.length > LIQUID_LIMITS.parseLimit) throw new Error('parse length limit exceeded');
  return new MarkupTokenizer(source, engine.options.operators, undefined, undefined, engine.options.groupedExpressions).readTopLevelTokens(engine.options);
}

/** `engine.parse(source)` in time linear in the source (`TokenQueue`); throws liquidjs's errors. */
export function parseLiquid(source: string, engine: Liquid): Template[] {
  return parseTokens(tokenize(source, engine), engine);
}

function parseTokens(tokens: TopLevelToken[], engine: Liquid): Template[] {
  return new Parser(engine).parseTokens(new TokenQueue(tokens) as unknown as TopLevelToken[]);
}

/**
 * Line numbers of offsets in one source: the line starts found once, then a binary search per
 * lookup, so naming the lines of n tokens is O(n log n) rather than liquidjs's rescan from the
 * start for each (`Token.getPosition`).
 */
export class LineIndex {
  private starts: number[] | null = null;
  constructor(private readonly source: string) {}

  /** 1-based line of the character at `offset`. */
  lineAt(offset: number): number {
    const starts = (this.starts ??= lineStarts(this.source));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Sources that parsed before: `/v1/send` usually repeats the same body with new data. */
const validSources = new LruCache<string, true>(2_000);

/**
 * Parses `source` and describes the first syntax error (with its line), or the first huge literal
 * range (`literalRangeProblem`), or returns null. Linear in the source: one tokenization, shared
 * by the parse and the range check.
 */
export function checkLiquidSyntax(source: string, engine: Liquid = htmlEngine): LiquidSyntaxProblem | null {
  const key = `${engine === htmlEngine ? 'h' : 't'}:${createHash('sha1').update(source).digest('base64')}`;
  if (validSources.get(key)) return null;
  let tokens: TopLevelToken[];
  try {
    tokens = tokenize(source, engine);
    const tags = tokens.reduce((n, token) => (token.kind === TokenKind.HTML ? n : n + 1), 0);
    if (tags > MAX_LIQUID_TAGS) return { line: null, tooManyTags: true, message: `it has ${tags} tags and outputs; a template may have at most ${MAX_LIQUID_TAGS}` };
    parseTokens(tokens, engine);
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const match = /line:(\d+)/.exec(raw);
    const message = raw.replace(/,?\s*line:\d+,\s*col:\d+/, '').split('\n')[0].trim();
    return { line: match ? Number(match[1]) : null, message };
  }
  const problem = literalRangeProblem(source, engine, tokens);
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
export function literalRangeProblem(source: string, engine: Liquid = htmlEngine, tokens: TopLevelToken[] = tokenize(source, engine)): LiquidSyntaxProblem | null {
  const lines = new LineIndex(source);
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
    for (const [range, low, high] of markup.matchAll(LITERAL_RANGE)) {
      const items = rangeSize(low, high);
      if (items > MAX_LITERAL_ITERATIONS) return { line: lines.lineAt(token.begin), tooLarge: true, message: `the range ${range.replace(/\s+/g, '')} has ${items} items; a template may loop over at most ${MAX_LITERAL_ITERATIONS}` };
    }
    if (tag && LOOP_ENDS[tag.name]) {
      const literal = LOOP_OVER_LITERAL_RANGE.exec(tag.args.replace(QUOTED, '""'));
      const items = literal ? Math.max(rangeSize(literal[1], literal[2]), 1) : 1;
      loops.push({ end: LOOP_ENDS[tag.name], items });
      nested *= items;
      if (nested > MAX_LITERAL_ITERATIONS) return { line: lines.lineAt(token.begin), tooLarge: true, message: `nested loops run ${nested} times; a template may loop over at most ${MAX_LITERAL_ITERATIONS} items in all` };
    } else if (tag && tag.name === loops.at(-1)?.end) {
      nested /= loops.pop()!.items;
    }
  }
  return null;
}
