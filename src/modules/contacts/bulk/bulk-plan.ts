import { isContactId } from '../../events';

/** Persisted in bulk_jobs.operation. */
export type BulkOperation = 'subscribe' | 'unsubscribe' | 'delete';

/** Persisted in bulk job errors. */
export type BulkItemError = 'invalid_id' | 'not_found';

export type BulkItem = { index: number; id: string; kind: 'target' | 'invalid' | 'duplicate' };

/**
 * Classifies each requested id once, up front, so every chunk of the job agrees: a malformed id
 * fails (`invalid_id`), a repeated id is unchanged (the first occurrence does the work), the
 * rest are targets looked up in the caller's project.
 */
export function planBulkItems(ids: string[]): BulkItem[] {
  const seen = new Set<string>();
  return ids.map((id, index) => {
    if (!isContactId(id)) return { index, id, kind: 'invalid' };
    if (seen.has(id)) return { index, id, kind: 'duplicate' };
    seen.add(id);
    return { index, id, kind: 'target' };
  });
}

export interface BulkChunkOutcome {
  success: number;
  unchanged: number;
  errors: Array<{ contactId: string; error: BulkItemError }>;
}

/** Folds the database's answer for a chunk's targets into counts and per-id errors, in request order. */
export function summarizeChunk(items: BulkItem[], changed: Set<string>, found: Set<string>): BulkChunkOutcome {
  const outcome: BulkChunkOutcome = { success: 0, unchanged: 0, errors: [] };
  for (const item of items) {
    if (item.kind === 'invalid') outcome.errors.push({ contactId: item.id, error: 'invalid_id' });
    else if (item.kind === 'duplicate') outcome.unchanged += 1;
    else if (changed.has(item.id)) outcome.success += 1;
    else if (found.has(item.id)) outcome.unchanged += 1;
    else outcome.errors.push({ contactId: item.id, error: 'not_found' });
  }
  return outcome;
}

/** 0..100, whole numbers; 100 only when every id is done. */
export function bulkProgress(processed: number, total: number): number {
  if (total === 0 || processed >= total) return 100;
  return Math.floor((processed / total) * 100);
}
