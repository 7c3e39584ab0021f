/**
 * /market/market (product-spec §2 "Market: index and market tabs; lists: all, rise and fall, loss
 * list, trading volume"): the Index tab (TAIEX of the replayed day and the market's breadth) and
 * the Market tab with whole-market rankings computed on the server: all, gainers (漲幅榜), losers
 * (跌幅榜, the spec's loss list), volume (成交量) and turnover (成交值), filtered by exchange, kind
 * and industry (components/ranking-panel.tsx).
 */
import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MARKET_SORTS } from '../../../../contract/constants';
import { MarketStatusBar } from '../../../market/components/status-bar';
import { useClock } from '../../../market/hooks';
import { SearchIcon } from '../../../ui/icons';
import { Page } from '../../../ui/page';
import { BreadthCard } from '../components/breadth-card';
import { IndexList } from '../components/index-list';
import { RankingPanel } from '../components/ranking-panel';

export function MarketPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'index' ? 'index' : 'market';
  const clock = useClock() as { replayDate?: string | null } | null;

  const tabs = (
    <>
      <MarketStatusBar replayDate={clock?.replayDate} />
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
        </>
      ) : (
        <RankingPanel sorts={MARKET_SORTS} fallback="all" top={tabs} />
      )}
    </Page>
  );
}
