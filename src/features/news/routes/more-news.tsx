/**
 * /home/moreNews: every published item, newest first, loaded page by page as the list scrolls
 * (infinite scroll, pull to refresh): operator articles and the generated ex-dividend, public
 * subscription and market-summary items.
 */
import { InfiniteScroll } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNewsPagesInfiniteQuery } from '../api/news-api';
import { NewsRow } from '../components/news-row';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';

export function MoreNewsPage() {
  const { t } = useTranslation();
  const q = useNewsPagesInfiniteQuery();
  const items = useMemo(() => (q.data?.pages ?? []).flatMap((p) => p.items), [q.data]);
  return (
    <Page title={t('news.title')}>
      <PullRefresh onRefresh={() => q.refetch()}>
        {!q.isLoading && items.length === 0 ? (
          <NoData />
        ) : (
          <div className="list-card" data-testid="news-list">
            {items.map((i) => (
              <NewsRow key={i.id} item={i} />
            ))}
          </div>
        )}
        {items.length > 0 && (
          <InfiniteScroll loadMore={async () => void (await q.fetchNextPage())} hasMore={q.hasNextPage} />
        )}
      </PullRefresh>
    </Page>
  );
}
