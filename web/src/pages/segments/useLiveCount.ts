import { useEffect, useRef, useState } from 'react';
import { data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { useApi } from '../../lib/project';
import { useDebounced } from '../../lib/useDebounced';
import type { ApiFilterTree } from './filterTree';

export type LiveCount = { state: 'idle' } | { state: 'counting'; last?: number } | { state: 'done'; count: number } | { state: 'error'; error: unknown };

/**
 * How many contacts a filter tree matches now, asked 500 ms after the last change through
 * `POST /segments/preview` (counted by the server, nothing saved). `tree` is null while the
 * builder has problems: nothing is asked.
 */
export function useLiveCount(tree: ApiFilterTree | null): LiveCount {
  const api = useApi();
  const text = useDebounced(tree ? JSON.stringify(tree) : '', 500);
  // The last answer and the tree text it answers; "counting" is derived (no state set in the effect body).
  const [answer, setAnswer] = useState<{ text: string; count?: number; error?: unknown } | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    if (!text) return;
    const condition = JSON.parse(text) as ApiFilterTree;
    const mine = ++seq.current;
    data(api.POST('/segments/preview', { body: { condition } })).then(
      (r) => mine === seq.current && setAnswer({ text, count: r.memberCount }),
      (error: unknown) => mine === seq.current && setAnswer({ text, error }),
    );
  }, [text, api]);

  if (!tree) return { state: 'idle' };
  const current = JSON.stringify(tree);
  if (answer && answer.text === current) return answer.error !== undefined ? { state: 'error', error: answer.error } : { state: 'done', count: answer.count ?? 0 };
  return { state: 'counting', last: answer?.count };
}

export function liveCountMessage(c: LiveCount): string {
  if (c.state === 'error') return c.error instanceof ApiError ? c.error.message : 'Could not count the contacts.';
  return '';
}
