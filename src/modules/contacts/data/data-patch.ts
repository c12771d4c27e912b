/**
 * The custom data rules of spec section 2, in one place. Every writer (/v1/track, /v1/send,
 * POST/PATCH /contacts, CSV import, workflows) goes through `compileDataPatch`, so the rules
 * cannot drift between them.
 *
 * Decisions (README "Custom data"):
 * - The patch is top-level: a sent key replaces that key's stored value; a plain object sent for
 *   a key replaces the stored object as a whole (no deep merge), so `{profile: {tier: "gold"}}`
 *   stores exactly that object.
 * - `{value, persistent: false}` is a one-off variable; `{value, persistent: true}` stores `value`.
 * - Arrays are stored as sent.
 */

import { validationError } from '../../../platform/http/app-error';
import { RESERVED_DATA_KEYS } from './data-rules';

/**
 * Custom-data limits (docs/api.md "Custom data limits"); each breach is a 422 naming the limit.
 * - `keyLength`: a key, and the dotted path of a nested key (`profile.tier`), in characters;
 * - `keysPerWrite`: keys (nested leaves counted by path) one request may set on a contact;
 * - `keysPerContact`: keys (nested leaves counted by path) one contact may hold after the write,
 *   enforced by the database (trigger `contact_data_keys_limit`, SQLSTATE MR002): writers merge in SQL;
 * - `keysPerProject`: distinct keys (`GET /contacts/fields`) a project may hold, enforced by the
 *   database (trigger `contact_fields_limit`, SQLSTATE MR001) since only it sees every writer.
 * The two database limits are literals in their migrations; change them together.
 */
export const DATA_LIMITS = { keyLength: 200, keysPerWrite: 1_000, keysPerContact: 1_000, keysPerProject: 10_000 } as const;

/** Throws the 422 for a `data` object over the per-write limits (key length, key count). */
export function checkDataLimits(data: JsonObject, field = 'data'): void {
  let keys = 0;
  const stack: Array<{ value: JsonObject; prefix: string }> = [{ value: data, prefix: '' }];
  while (stack.length > 0) {
    const { value, prefix } = stack.pop()!;
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (path.length > DATA_LIMITS.keyLength) {
        throw validationError([
          { field: `${field}.${path.slice(0, 40)}…`, code: 'too_big', message: `data keys (with their parent keys, dotted) may be at most ${DATA_LIMITS.keyLength} characters long (keyLength limit)` },
        ]);
      }
      if (isPlainObject(child)) stack.push({ value: child, prefix: path });
      else if (++keys > DATA_LIMITS.keysPerWrite) {
        throw validationError([{ field, code: 'too_big', message: `data may set at most ${DATA_LIMITS.keysPerWrite} keys per request, nested keys counted (keysPerWrite limit)` }]);
      }
    }
  }
}

export { RESERVED_DATA_KEYS };
const RESERVED = new Set(RESERVED_DATA_KEYS);

export type JsonObject = Record<string, unknown>;

export interface CompiledDataPatch {
  /** Keys to store with their new values (merged over the stored data). */
  set: JsonObject;
  /** Keys to delete (sent as null). */
  unset: string[];
  /** One-off values: available to this send/event only, never stored. */
  transient: JsonObject;
}

export interface AppliedDataPatch {
  data: JsonObject;
  transient: JsonObject;
  changedKeys: string[];
}

export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `{value, persistent}` with no other keys and a boolean `persistent`. */
function asWrapper(value: unknown): { value: unknown; persistent: boolean } | undefined {
  if (!isPlainObject(value) || !('value' in value) || typeof value.persistent !== 'boolean') return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 2) return undefined;
  return { value: value.value, persistent: value.persistent };
}

/** Splits a raw `data` payload into what to store, delete and use once. */
export function compileDataPatch(patch: JsonObject | null | undefined): CompiledDataPatch {
  const set: JsonObject = {};
  const unset: string[] = [];
  const transient: JsonObject = {};
  if (!patch) return { set, unset, transient };
  checkDataLimits(patch);
  for (const [key, raw] of Object.entries(patch)) {
    // `__proto__` cannot round-trip through plain objects safely; it is dropped like a reserved key.
    if (RESERVED.has(key) || key === '' || key === '__proto__') continue;
    let value = raw;
    const wrapper = asWrapper(raw);
    if (wrapper) {
      if (!wrapper.persistent) {
        if (wrapper.value !== undefined) transient[key] = wrapper.value;
        continue;
      }
      value = wrapper.value;
    }
    if (value === undefined || value === '') continue;
    if (value === null) {
      unset.push(key);
      continue;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    set[key] = value;
  }
  return { set, unset, transient };
}

/** Pure form of the rules: the stored data after `patch`, the one-off values and which keys changed. */
export function applyDataPatch(existing: JsonObject | null | undefined, patch: JsonObject | null | undefined): AppliedDataPatch {
  const before = existing ?? {};
  const { set, unset, transient } = compileDataPatch(patch);
  const data: JsonObject = { ...before };
  const changedKeys: string[] = [];
  for (const key of unset) {
    if (key in data) {
      delete data[key];
      changedKeys.push(key);
    }
  }
  for (const [key, value] of Object.entries(set)) {
    if (!(key in before) || !jsonEqual(before[key], value)) changedKeys.push(key);
    data[key] = value;
  }
  return { data, transient, changedKeys };
}

/** What templates render with: stored data overlaid with this call's one-off values. */
export function templateVariables(data: JsonObject, transient: JsonObject): JsonObject {
  return { ...data, ...transient };
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a as JsonObject);
  const kb = Object.keys(b as JsonObject);
  return ka.length === kb.length && ka.every((k) => k in (b as JsonObject) && jsonEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}
