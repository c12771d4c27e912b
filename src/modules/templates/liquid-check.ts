import { Injectable } from '@nestjs/common';
import { FieldError, validationError } from '../../platform/http/app-error';
import { checkLiquidSyntax, describeLiquidProblem, htmlEngine, type LiquidSyntaxProblem, textEngine } from './rendering/liquid-engine';
import { RendererUnavailableError, RenderPool } from './rendering/render-pool';

/** Sources up to this many characters are checked on the caller's thread (a few ms at most); longer ones in a renderer. */
const INLINE_CHECK_CHARS = 4_096;

/**
 * The save-time Liquid check of templates, campaigns and inline `/v1/send` content
 * (docs/rendering.md): one 422 item per field whose Liquid does not parse, has too many tags, or
 * loops over a huge literal range. A long source is parsed in a renderer process, ahead of the
 * renders waiting there, so no request body is parsed on the API's event loop.
 */
@Injectable()
export class LiquidCheck {
  constructor(private readonly pool: RenderPool) {}

  /** A field named `subject` is a header (no HTML escaping); any other is a body. */
  async problems(fields: Record<string, string | null | undefined>): Promise<FieldError[]> {
    const entries = Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    const found = await this.check(entries.map(([field, source]) => ({ source, subject: field === 'subject' })));
    return entries.flatMap(([field], i) => (found[i] ? [{ field, message: describeLiquidProblem(found[i]), code: 'invalid_template' }] : []));
  }

  async assertValid(fields: Record<string, string | null | undefined>): Promise<void> {
    const items = await this.problems(fields);
    if (items.length) throw validationError(items);
  }

  private async check(sources: Array<{ source: string; subject: boolean }>): Promise<Array<LiquidSyntaxProblem | null>> {
    const inline = (s: { source: string; subject: boolean }) => checkLiquidSyntax(s.source, s.subject ? textEngine : htmlEngine);
    if (sources.every((s) => s.source.length <= INLINE_CHECK_CHARS)) return sources.map(inline);
    try {
      return await this.pool.checkLiquid(sources);
    } catch (err) {
      // No renderer could start: the check is bounded (`MAX_LIQUID_TAGS`, linear), so it runs here rather than fail the request.
      if (err instanceof RendererUnavailableError) return sources.map(inline);
      throw err;
    }
  }
}
