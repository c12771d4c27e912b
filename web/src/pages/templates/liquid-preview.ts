import { defaultOperators, Liquid } from 'liquidjs';

/**
 * The preview renders like the server (src/modules/templates/rendering/liquid-engine.ts): the
 * same liquidjs options, the `??` operator, no file tags, values HTML-escaped in the body and not
 * in the subject, variables at the top level and again as `data`.
 */
const nullish = (left: unknown, right: unknown): unknown => (left === undefined || left === null ? right : left);
const FILE_TAGS = ['include', 'render', 'layout', 'block'];

function createEngine(escape: boolean): Liquid {
  const engine = new Liquid({
    outputEscape: escape ? 'escape' : undefined,
    ownPropertyOnly: true,
    strictFilters: true,
    renderLimit: 2_000,
    parseLimit: 2_000_000,
    operators: { ...defaultOperators, '??': nullish as never },
  });
  const tags = engine.tags as unknown as Record<string, unknown>;
  for (const tag of FILE_TAGS) delete tags[tag];
  return engine;
}

const htmlEngine = createEngine(true);
const textEngine = createEngine(false);

export interface LiquidProblem {
  field: 'subject' | 'body';
  line: number | null;
  message: string;
}

export type PreviewResult = { ok: true; subject: string; html: string } | { ok: false; problem: LiquidProblem };

/** liquidjs messages end with ", line:3, col:7" and a source excerpt: keep the sentence and the line. */
export function describeLiquidError(field: LiquidProblem['field'], err: unknown): LiquidProblem {
  const raw = err instanceof Error ? err.message : String(err);
  const line = /line:(\d+)/.exec(raw);
  const message = raw.replace(/,?\s*line:\d+,\s*col:\d+/, '').split('\n')[0].trim();
  return { field, line: line ? Number(line[1]) : null, message };
}

/** The first syntax problem of a subject or body, or null when it parses (what the server checks at save). */
export function checkLiquid(field: LiquidProblem['field'], source: string): LiquidProblem | null {
  try {
    (field === 'subject' ? textEngine : htmlEngine).parse(source);
    return null;
  } catch (err) {
    return describeLiquidError(field, err);
  }
}

/** Variables every email gets from the service (links are placeholders in the preview). */
export function previewVariables(sample: Record<string, unknown>, email: string): Record<string, unknown> {
  return {
    email,
    id: 'cnt_preview',
    locale: 'en',
    unsubscribeUrl: '#unsubscribe',
    subscribeUrl: '#subscribe',
    manageUrl: '#manage',
    ...sample,
  };
}

export function renderPreview(subject: string, body: string, variables: Record<string, unknown>): PreviewResult {
  const scope = { ...variables, data: variables };
  let subjectTemplates;
  try {
    subjectTemplates = textEngine.parse(subject);
  } catch (err) {
    return { ok: false, problem: describeLiquidError('subject', err) };
  }
  let bodyTemplates;
  try {
    bodyTemplates = htmlEngine.parse(body);
  } catch (err) {
    return { ok: false, problem: describeLiquidError('body', err) };
  }
  try {
    const renderedSubject = (textEngine.renderSync(subjectTemplates, scope) as string).replace(/[\r\n]+/g, ' ').trim();
    const html = htmlEngine.renderSync(bodyTemplates, scope) as string;
    return { ok: true, subject: renderedSubject, html };
  } catch (err) {
    return { ok: false, problem: describeLiquidError('body', err) };
  }
}

/** `/v1/send` data whose keys are used for this one email and not stored on the contact. */
export function oneOffData(sample: Record<string, unknown>): Record<string, { value: unknown; persistent: false }> {
  return Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, { value, persistent: false as const }]));
}
