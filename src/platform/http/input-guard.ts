import type { NextFunction, Request, Response } from 'express';
import { FieldError, validationError } from './app-error';

/**
 * Limits every parsed request body meets before any guard, interceptor, pipe or handler sees it
 * (decisions in docs/api.md, "Input rules"):
 * - nesting deeper than MAX_INPUT_DEPTH levels is a 422 (class-transformer and class-validator
 *   recurse per level; 10,000 levels overflowed the stack);
 * - text that is not well-formed UTF-16 (an unpaired surrogate, `"\ud800"`) is a 422 naming the
 *   field, in values and in keys: it cannot be encoded as UTF-8 for PostgreSQL, SMTP or a URL.
 *
 * - a key holding NUL (U+0000) is a 422 too: no key can be stored with it.
 *
 * NUL in values stays the business of the endpoints and of the database net in exception.filter
 * (batched writers rely on the database refusing it for one item only).
 */
export const MAX_INPUT_DEPTH = 32;

const KEY_MESSAGE = 'keys must be well-formed Unicode (no unpaired UTF-16 surrogates such as \\ud800) and free of NUL (\\u0000)';
export const UNPAIRED_SURROGATE_MESSAGE = 'text must be well-formed Unicode (no unpaired UTF-16 surrogates such as \\ud800)';

/** `a.b[0].c`, the same paths class-validator errors use. */
export function joinField(prefix: string, key: string | number): string {
  if (typeof key === 'number') return `${prefix}[${key}]`;
  return prefix ? `${prefix}.${key}` : key;
}

/** ES2024 string methods (Node 20+); the project's `lib` is ES2023. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wellFormed = (text: string): boolean => (text as unknown as WellFormedString).isWellFormed();
const toWellFormed = (text: string): string => (text as unknown as WellFormedString).toWellFormed();

/** A value still to look at: its key under its parent, whose path is built only for an error. */
interface Pending {
  value: unknown;
  key: string | number | null;
  parent: Pending | null;
  depth: number;
}

/** `a.b[0].c` of a pending value (from `rootField`), walking up its parents. */
function pathOf(node: Pending, rootField: string): string {
  const keys: Array<string | number> = [];
  for (let n: Pending | null = node; n && n.key !== null; n = n.parent) keys.push(n.key);
  let field = rootField;
  for (let i = keys.length - 1; i >= 0; i--) field = joinField(field, keys[i]);
  return field;
}

/**
 * The first problem in a parsed JSON value, or undefined. Iterative (an explicit stack), so a
 * hostile depth cannot overflow it; stops at the first problem. Paths are built only for the
 * problem found (most bodies have none, and every request passes here).
 */
export function inspectInput(root: unknown, rootField = ''): FieldError | undefined {
  const stack: Pending[] = [{ value: root, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value === 'string') {
      if (!wellFormed(value)) return { field: pathOf(node, rootField) || 'body', code: 'invalid_string', message: UNPAIRED_SURROGATE_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      return { field: topLevel(pathOf(node, rootField)) || 'body', code: 'too_deep', message: `values may nest at most ${MAX_INPUT_DEPTH} levels deep` };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: node, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (!wellFormed(key) || key.includes('\u0000')) {
        return { field: joinField(pathOf(node, rootField), toWellFormed(key).replaceAll('\u0000', '\ufffd')), code: 'invalid_string', message: KEY_MESSAGE };
      }
      stack.push({ value: (value as Record<string, unknown>)[key], key, parent: node, depth: depth + 1 });
    }
  }
  return undefined;
}

/** The first segment of a path: a 10,000-level path would make an unreadable error item. */
function topLevel(field: string): string {
  const match = /^[^.[]*/.exec(field);
  return match ? match[0] : field;
}

/** Express middleware after the body parsers: 422 in the error envelope for bodies and queries that break the rules above. */
export function inputGuardMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const problem = inspectInput(req.body) ?? inspectInput(req.query);
  next(problem ? validationError([problem]) : undefined);
}
