/**
 * /market/market (product-spec §2 "Market: index and market tabs; lists: all, rise and fall, loss
 * list, trading volume"): the Index tab (TAIEX of the replayed day and the market's breadth) and
 * the Market tab with whole-market rankings computed on the server: all, gainers (漲幅榜), losers
 * (跌幅榜, the spec's loss list), volume (成交量) and turnover (成交值), filtered by exchange, kind
 * and industry (components/ranking-panel.tsx). Pulling the Index tab down refetches the indices
 * and the breadth (src/ui/pull-refresh.tsx); the rankings are refetched every second already
 * (ranking-window.ts), so the Market tab has no pull.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MARKET_SORTS } from '../../../../contract/constants';
import { api } from '../../../api/api';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { SearchIcon } from '../../../ui/icons';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { marketApi } from '../api/market-api';
import { BreadthCard } from '../components/breadth-card';
import { IndexList } from '../components/index-list';
import { RankingPanel } from '../components/ranking-panel';

/** A fresh fetch of the Index tab's data (indices, breadth), settled when both are in. */
function useIndexRefresh(): () => Promise<unknown> {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const fresh = { subscribe: false, forceRefetch: true } as const;
  return () =>
    Promise.all([
      dispatch(api.endpoints.indices.initiate(undefined, fresh)),
      dispatch(marketApi.endpoints.breadth.initiate(undefined, fresh)),
    ]);
}

export function MarketPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'index' ? 'index' : 'market';
  const refreshIndex = useIndexRefresh();

  const tabs = (
    <>
      <MarketStatusBar />
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          const next = new URLSearchParams(params);
          next.set('tab', k);
          setParams(next, { replace: true });
        }}
      >
        <Tabs.Tab title={<span data-testid="market-tab-index">{t('market.tabIndex')}</span>} key="index" />
        <Tabs.Tab title={<span data-testid="market-tab-market">{t('market.tabMarket')}</span>} key="market" />
      </Tabs>
    </>
  );

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
      {tab === 'index' ? (
        <>
          <div className="sticky-head">{tabs}</div>
          <PullRefresh onRefresh={refreshIndex}>
            <IndexList />
            <BreadthCard />
            <div
              className="hot-link"
              role="link"
              tabIndex={0}
              data-testid="to-hot-stocks"
              onClick={() => navigate('/market/stockHot/stockList')}
            >
              {t('ranking.hotTitle')} ›
            </div>
          </PullRefresh>
        </>
      ) : (
        <RankingPanel sorts={MARKET_SORTS} fallback="all" top={tabs} />
      )}
    </Page>
  );
}
