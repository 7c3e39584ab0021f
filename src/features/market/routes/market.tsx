/**
 * /market/market: Index tab (official daily index figures) and Market tab with All, Gainers,
 * Losers and Volume lists. Lists page through market/list, are virtualised with react-virtuoso,
 * and the rows on screen are kept live through the worker's `quotes` channel.
 */
import { CapsuleTabs, DotLoading, Tabs } from 'antd-mobile';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Virtuoso } from 'react-virtuoso';
import { useMarketListInfiniteQuery } from '../../../api/api';
import { MarketStatusBar } from '../../../market/components/status-bar';
import { QUOTE_ROW_HEIGHT_PX, QuoteRow } from '../../../market/components/quote-row';
import { useQuoteStream } from '../../../market/hooks';
import { clockSeen, quotesReceived } from '../../../market/quotes-slice';
import { MARKET_SORTS } from '../../../../contract/constants';
import { SearchIcon } from '../../../ui/icons';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { IndexList } from '../components/index-list';

const SORTS = MARKET_SORTS;
type Sort = (typeof SORTS)[number];
/** Rows beyond the visible range that are also kept live (smooth scrolling). */
const OVERSCAN_ROWS = 5;
const VISIBLE_DEBOUNCE_MS = 200;

function MarketList({ sort }: { sort: Sort }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const { data, isLoading, isError, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useMarketListInfiniteQuery({
      sort,
    });
  const pages = data?.pages;
  const symbols = useMemo(() => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const p of pages ?? [])
      for (const q of p.items) {
        if (seen.has(q.symbol)) continue;
        seen.add(q.symbol);
        out.push(q.symbol);
      }
    return out;
  }, [pages]);

  // Seed the store with each page's snapshot and record the market clock.
  const seededPages = useRef(new WeakSet<object>());
  useEffect(() => {
    for (const p of pages ?? []) {
      if (seededPages.current.has(p)) continue;
      seededPages.current.add(p);
      dispatch(quotesReceived(p.items));
      dispatch(clockSeen(p.clock));
    }
  }, [pages, dispatch]);

  const [range, setRange] = useState({ startIndex: 0, endIndex: 15 });
  const [visible, setVisible] = useState<string[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => {
      const from = Math.max(0, range.startIndex - OVERSCAN_ROWS);
      const to = Math.min(symbols.length, range.endIndex + OVERSCAN_ROWS + 1);
      setVisible(symbols.slice(from, to));
    }, VISIBLE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [range, symbols]);
  useQuoteStream(visible);

  const open = useCallback((symbol: string) => navigate(`/market/marketDetail?symbol=${symbol}`), [navigate]);

  if (isLoading)
    return (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  if (isError || symbols.length === 0) return <NoData />;

  return (
    <Virtuoso
      useWindowScroll
      data={symbols}
      computeItemKey={(_, s) => s}
      fixedItemHeight={QUOTE_ROW_HEIGHT_PX}
      increaseViewportBy={200}
      rangeChanged={setRange}
      endReached={() => {
        if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
      }}
      itemContent={(_, symbol) => <QuoteRow symbol={symbol} onOpen={open} />}
      components={{
        Footer: () => (
          <div className="list-footer">
            {isFetchingNextPage ? <DotLoading /> : hasNextPage ? null : t('common.noMore')}
          </div>
        ),
      }}
    />
  );
}

export function MarketPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'index' ? 'index' : 'market';
  const sortParam = params.get('sort');
  const sort: Sort = (SORTS as readonly string[]).includes(sortParam ?? '') ? (sortParam as Sort) : 'all';

  const setParam = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    next.set(k, v);
    setParams(next, { replace: true });
  };

  return (
    <Page
      title={t('market.title')}
      back={false}
      right={
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <button
            type="button"
            className="icon-button"
            onClick={() => navigate('/home/searchIndex')}
            aria-label={t('search.title')}
            data-testid="to-search"
          >
            <SearchIcon />
          </button>
          <span
            className="nav-link"
            role="link"
            onClick={() => navigate('/market/favo')}
            data-testid="to-favo"
          >
            {t('market.watchlist')}
          </span>
        </span>
      }
    >
      <div className="sticky-head">
        <MarketStatusBar />
        <Tabs activeKey={tab} onChange={(k) => setParam('tab', k)}>
          <Tabs.Tab title={<span data-testid="market-tab-index">{t('market.tabIndex')}</span>} key="index" />
          <Tabs.Tab
            title={<span data-testid="market-tab-market">{t('market.tabMarket')}</span>}
            key="market"
          />
        </Tabs>
        {tab === 'market' && (
          <CapsuleTabs activeKey={sort} onChange={(k) => setParam('sort', k)} className="sort-tabs">
            {SORTS.map((s) => (
              <CapsuleTabs.Tab
                key={s}
                title={<span data-testid={`market-sort-${s}`}>{t(`market.sort.${s}`)}</span>}
              />
            ))}
          </CapsuleTabs>
        )}
        {tab === 'market' && (
          <div className="quote-head">
            <span>{t('market.colName')}</span>
            <span>{t('market.colLast')}</span>
            <span>{t('market.colChange')}</span>
            <span>{t('market.colPct')}</span>
          </div>
        )}
      </div>
      {tab === 'index' ? <IndexList /> : <MarketList key={sort} sort={sort} />}
    </Page>
  );
}
