import { Parser } from 'htmlparser2';

export interface InstrumentPlan {
  /** Returns the tracked URL for a link target, or null to leave the link alone. */
  rewriteLink?: (href: string) => string | null;
  /** HTML inserted just before `</body>` (or appended when there is none), e.g. the open pixel or a footer. */
  beforeBodyEnd?: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function openTag(name: string, attribs: Record<string, string>): string {
  const attributes = Object.entries(attribs).map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`);
  return `<${name}${attributes.join('')}>`;
}

/**
 * Rewrites `<a href>` targets and inserts markup before `</body>`, using a real HTML tokenizer so
 * links inside comments, scripts or attribute text are never touched. Everything else in the
 * document stays byte-for-byte as it was.
 */
export function instrumentHtml(html: string, plan: InstrumentPlan): string {
  const edits: Edit[] = [];
  let bodyEnd = -1;
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs, isImplied) {
        if (isImplied || name !== 'a' || !plan.rewriteLink || attribs.href === undefined || 'data-no-track' in attribs) return;
        const target = plan.rewriteLink(attribs.href.trim());
        if (target === null) return;
        edits.push({ start: parser.startIndex, end: parser.endIndex + 1, text: openTag(name, { ...attribs, href: target }) });
      },
      onclosetag(name, isImplied) {
        if (name === 'body' && !isImplied) bodyEnd = parser.startIndex;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  if (plan.beforeBodyEnd) edits.push({ start: bodyEnd >= 0 ? bodyEnd : html.length, end: bodyEnd >= 0 ? bodyEnd : html.length, text: plan.beforeBodyEnd });
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const edit of edits) {
    out += html.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + html.slice(cursor);
}

/** Only absolute http(s) links are tracked; mailto:, tel:, anchors, relative and script links are not. */
export function isTrackableUrl(href: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    const url = new URL(href);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
