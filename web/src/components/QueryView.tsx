import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage';
import { Loading } from './Feedback';
import { Button } from './Button';

/** Loading, error (with a retry) or the data of one query. */
export function QueryView<T>({ query, title, children, loadingLabel }: { query: UseQueryResult<T, unknown>; title?: string; loadingLabel?: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError)
    return (
      <div>
        <ErrorMessage error={query.error} title={title ?? 'Could not load this'} />
        <Button onClick={() => query.refetch()} pending={query.isFetching} pendingLabel="Retrying…">
          Try again
        </Button>
      </div>
    );
  return <>{children(query.data)}</>;
}
