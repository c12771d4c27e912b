import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { ErrorMessage } from './ErrorMessage';
import { Loading } from './Feedback';

/**
 * A cursor list read a page at a time (`useInfiniteQuery` over `{data, cursor, hasMore}` pages):
 * loading, an error with a retry, `empty` when it has no item, else `children` with every item
 * loaded so far, then "Show older" while more follow.
 */
export function CursorListView<T>({
  query,
  loadingLabel,
  errorTitle,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[] }, unknown>, unknown>;
  loadingLabel: string;
  errorTitle: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError)
    return (
      <>
        <ErrorMessage error={query.error} title={errorTitle} />
        <Button onClick={() => query.refetch()}>Try again</Button>
      </>
    );
  const items = query.data.pages.flatMap((p) => p.data);
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      {children(items)}
      {query.hasNextPage && (
        <Button onClick={() => void query.fetchNextPage()} pending={query.isFetchingNextPage} pendingLabel="Loading…">
          Show older
        </Button>
      )}
    </>
  );
}
