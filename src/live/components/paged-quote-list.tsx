/**
 * A virtualized, paged list of live quote rows over one of the market/list infinite queries:
 * each page's snapshot seeds the quotes store once (rows paint before the stream), symbols are
 * de-duplicated across pages, only the rows on screen stream (../visible-rows.ts), the next page
 * loads at the end, and the footer says when there is no more.
 */
import { DotLoading } from 'antd-mobile';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Virtuoso } from 'react-virtuoso';
import type { ClockState, Quote } from '../../../contract/market';
import { NoData } from '../../ui/no-data';
import { recordNamesEn } from '../names-en';
import { clockSeen, quotesReceived } from '../quotes-slice';
import { useVisibleQuotes } from '../visible-rows';
import { QUOTE_ROW_HEIGHT_PX, QuoteRow } from './quote-row';

/** What the list needs of an RTK Query infinite query over market/list pages. */
export interface QuotePages {
  data?: {
    pages: ReadonlyArray<{
      items: Quote[];
      total: number;
      clock: ClockState;
      /** English short names by symbol (market/list pages); recorded for the rows' titles. */
      namesEn?: Readonly<Record<string, string>>;
    }>;
  };
  isLoading: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * @param list the infinite query's state
 * @param onOpen a row was tapped (its symbol)
 * @param header above the first row, scrolled with the list (given the total, e.g. a count)
 */
export function PagedQuoteList({
  list,
  onOpen,
  header,
  emptyTestId,
}: {
  list: QuotePages;
  onOpen: (symbol: string) => void;
  header?: (total: number) => ReactNode;
  emptyTestId?: string;
}) {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const { data, isLoading, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const pages = data?.pages;
  const symbols = useMemo(() => {
    const seen = new Set<string>();
    for (const p of pages ?? []) for (const q of p.items) seen.add(q.symbol);
    return [...seen];
  }, [pages]);
  const seeded = useRef(new WeakSet<object>());
  useEffect(() => {
    for (const p of pages ?? []) {
      if (seeded.current.has(p)) continue;
      seeded.current.add(p);
      dispatch(quotesReceived(p.items));
      if (p.namesEn) recordNamesEn(p.namesEn);
      dispatch(clockSeen(p.clock));
    }
  }, [pages, dispatch]);
  const onRange = useVisibleQuotes(symbols);

  if (isLoading)
    return (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  if (isError || symbols.length === 0) return <NoData testId={emptyTestId} />;
  const total = pages?.[0]?.total ?? symbols.length;
  return (
    <Virtuoso
      useWindowScroll
      data={symbols}
      computeItemKey={(_, s) => s}
      fixedItemHeight={QUOTE_ROW_HEIGHT_PX}
      increaseViewportBy={200}
      rangeChanged={onRange}
      endReached={() => {
        if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
      }}
      itemContent={(_, symbol) => <QuoteRow symbol={symbol} onOpen={onOpen} />}
      components={{
        Header: header ? () => header(total) : undefined,
        Footer: () => (
          <div className="list-footer">
            {isFetchingNextPage ? <DotLoading /> : hasNextPage ? null : t('common.noMore')}
          </div>
        ),
      }}
    />
  );
}
