import type { FieldType } from './field-types';

const TTL_MS = 60_000;
const MAX_PROJECTS = 5_000;
const MAX_KEYS_PER_PROJECT = 2_000;

/**
 * Keys whose type row is known to exist, per project, so the hot write paths skip the
 * contact_fields insert. Entries expire after a minute so a field deleted through another
 * process gets its type row back on the next write of that key.
 */
export class FieldTypeCache {
  private readonly projects = new Map<string, { keys: Set<string>; expires: number }>();

  /** The typed keys not yet known to be registered. */
  unknown(projectId: string, typed: Array<[string, FieldType]>): Array<[string, FieldType]> {
    if (typed.length === 0) return typed;
    const entry = this.projects.get(projectId);
    if (!entry || entry.expires < Date.now()) return typed;
    return typed.filter(([key]) => !entry.keys.has(key));
  }

  remember(projectId: string, keys: string[]): void {
    if (keys.length === 0) return;
    let entry = this.projects.get(projectId);
    if (!entry || entry.expires < Date.now()) {
      if (this.projects.size >= MAX_PROJECTS) this.projects.clear();
      entry = { keys: new Set(), expires: Date.now() + TTL_MS };
      this.projects.set(projectId, entry);
    }
    if (entry.keys.size + keys.length > MAX_KEYS_PER_PROJECT) entry.keys.clear();
    for (const key of keys) entry.keys.add(key);
  }

  forget(projectId: string): void {
    this.projects.delete(projectId);
  }
}
