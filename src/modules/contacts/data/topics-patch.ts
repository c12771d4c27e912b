import { validationError } from '../../../platform/http/app-error';
import { compileDataPatch, isPlainObject, JsonObject } from './data-patch';

/** A `topics` patch split like a `data` patch: choices to store and choices to remove (sent as null). */
export interface CompiledTopicsPatch {
  set: Record<string, boolean>;
  unset: string[];
  /** Every slug the patch names (what must be a topic of the project). */
  slugs: string[];
}

/**
 * `topics` is patched with the rules of `data` (`compileDataPatch`: a sent key replaces that
 * choice, null removes it, other keys stay), and each value must be a boolean or null: anything
 * else is a 422 naming the slug, before anything is written.
 */
export function compileTopicsPatch(patch: unknown, field = 'topics'): CompiledTopicsPatch | undefined {
  if (patch === undefined || patch === null) return undefined;
  if (!isPlainObject(patch)) throw validationError([{ field, code: 'invalid_type', message: 'topics must be an object of topic slugs to true, false or null', received: patch }]);
  const bad = Object.entries(patch).filter(([, v]) => v !== null && typeof v !== 'boolean');
  if (bad.length > 0) {
    throw validationError(bad.map(([slug, v]) => ({ field: `${field}.${slug}`, code: 'invalid_type', message: 'a topic choice is true, false or null (null removes the choice)', received: v })));
  }
  const { set, unset } = compileDataPatch(patch as JsonObject);
  return { set: set as Record<string, boolean>, unset, slugs: [...Object.keys(set), ...unset] };
}
