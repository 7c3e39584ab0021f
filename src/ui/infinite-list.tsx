/**
 * A member screen's paged list: the pages of an RTK Query infinite query as one list card, with
 * pull-to-refresh (./pull-refresh.tsx), the spec's no-data placeholder when the first page is
 * empty, and antd-mobile's InfiniteScroll fetching the next page at the bottom.
 */
import { InfiniteScroll } from 'antd-mobile';
import { useMemo, type ReactNode } from 'react';
import { NoData } from './no-data';
import { PullRefresh } from './pull-refresh';

/** What InfiniteList reads of an infinite query's result. */
export interface InfiniteState<T> {
  data?: { pages: Array<{ items: T[] }> };
  isLoading: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  refetch: () => unknown;
}

/** The items of every page of `q`, each drawn by `row`, in a list card with `testId`. */
export function InfiniteList<T>({
  q,
  testId,
  row,
}: {
  q: InfiniteState<T>;
  testId: string;
  row: (item: T) => ReactNode;
}) {
  const items = useMemo(() => (q.data?.pages ?? []).flatMap((p) => p.items), [q.data]);
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      {!q.isLoading && items.length === 0 ? (
        <NoData />
      ) : (
        <div className="list-card" data-testid={testId}>
          {items.map(row)}
        </div>
      )}
      {items.length > 0 && (
        <InfiniteScroll loadMore={async () => void (await q.fetchNextPage())} hasMore={q.hasNextPage} />
      )}
    </PullRefresh>
  );
}
