import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/errors';
import { PREVIEW_MARKER, type Segment } from '../../api/segments';
import { useApi } from '../../lib/project';
import { useDebounced } from '../contacts/useDebounced';
import type { FilterTree } from './filterTree';

export type LiveCount = { state: 'idle' } | { state: 'counting'; last?: number } | { state: 'done'; count: number } | { state: 'error'; error: unknown };

/**
 * How many contacts a filter tree matches now, asked 500 ms after the last change.
 * The API counts trees only on segments, so this keeps one scratch DYNAMIC segment (marked by
 * PREVIEW_MARKER, hidden from the lists) whose condition it PATCHes, and deletes it on unmount.
 * `tree` is null while the builder has problems: nothing is asked.
 */
export function useLiveCount(tree: FilterTree | null): LiveCount {
  const api = useApi();
  const text = useDebounced(tree ? JSON.stringify(tree) : '', 500);
  // The last answer and the tree text it answers; "counting" is derived (no state set in the effect body).
  const [answer, setAnswer] = useState<{ text: string; count?: number; error?: unknown } | null>(null);
  const scratch = useRef<Promise<string | null> | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    if (!text) return;
    const condition = JSON.parse(text) as FilterTree;
    const mine = ++seq.current;
    const run = async (): Promise<number> => {
      const id = scratch.current ? await scratch.current : null;
      if (id) return (await api.patch<Segment>(`/segments/${id}`, { condition })).memberCount;
      const created = api.post<Segment>('/segments', { name: `Live count ${Math.random().toString(36).slice(2, 10)}`, description: PREVIEW_MARKER, type: 'DYNAMIC', condition });
      scratch.current = created.then((s) => s.id).catch(() => null);
      return (await created).memberCount;
    };
    run().then(
      (count) => mine === seq.current && setAnswer({ text, count }),
      (error: unknown) => mine === seq.current && setAnswer({ text, error }),
    );
  }, [text, api]);

  useEffect(
    () => () => {
      const pending = scratch.current;
      scratch.current = null;
      void pending?.then((id) => {
        if (id) void api.del(`/segments/${id}`).catch(() => undefined);
      });
    },
    [api],
  );
  if (!tree) return { state: 'idle' };
  const current = JSON.stringify(tree);
  if (answer && answer.text === current) return answer.error !== undefined ? { state: 'error', error: answer.error } : { state: 'done', count: answer.count ?? 0 };
  return { state: 'counting', last: answer?.count };
}

export function liveCountMessage(c: LiveCount): string {
  if (c.state === 'error') return c.error instanceof ApiError ? c.error.message : 'Could not count the contacts.';
  return '';
}
