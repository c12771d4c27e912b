import { FieldError, notFound, ShortBadRequest, validationError } from '../../platform/http/app-error';
import { checkLiquidSyntax, htmlEngine, textEngine } from './rendering/liquid-engine';

export const templateNotFound = () => notFound('Template');

export const missingTemplateField = (field: string) => new ShortBadRequest(`${field} is required`);

/** One 422 item per field whose Liquid does not parse, or loops over a huge literal range (docs/rendering.md), naming the line. */
export function liquidProblems(fields: Record<string, string | undefined>): FieldError[] {
  const items: FieldError[] = [];
  for (const [field, source] of Object.entries(fields)) {
    if (source === undefined) continue;
    const problem = checkLiquidSyntax(source, field === 'subject' ? textEngine : htmlEngine);
    if (problem) {
      const what = problem.tooLarge ? 'Template loops too large' : 'Invalid template syntax';
      items.push({ field, message: problem.line ? `${what} on line ${problem.line}: ${problem.message}` : `${what}: ${problem.message}`, code: 'invalid_template' });
    }
  }
  return items;
}

export const assertValidLiquid = (fields: Record<string, string | undefined>): void => {
  const items = liquidProblems(fields);
  if (items.length) throw validationError(items);
};
