import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query string as its list state (search, filters, page), so a reload or a shared link
 * shows the same list. `update({ key: value })` sets each key, removes those given '', and
 * replaces the history entry (typing in a search box does not stack up back-button steps).
 */
export function useUrlParams(): [URLSearchParams, (changes: Record<string, string>) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [params, update];
}
