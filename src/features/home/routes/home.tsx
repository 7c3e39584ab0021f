/**
 * /home/index: the TAIEX figure (official daily close with its date), shortcuts to the areas that
 * exist, a few live quotes and the newest news (a lazy section). Every figure comes from the API
 * or the feed. Pulling the screen down refetches the index, the quotes, the news and the unread
 * notices count (src/ui/pull-refresh.tsx).
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { Grid } from 'antd-mobile';
import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { api, useIndicesQuery, useQuotesQuery } from '../../../api/api';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatPercent, formatSignedMinor } from '../../../lib/format';
import { MarketStatusBar } from '../../../market/components/status-bar';
import { QuoteRow } from '../../../market/components/quote-row';
import { useQuoteStream, useSeedQuotes } from '../../../market/hooks';
import {
  CreditIcon,
  DepositIcon,
  EtfIcon,
  HoldingsIcon,
  MineIcon,
  RecordsIcon,
  SearchIcon,
  ServiceIcon,
  StarIcon,
  SubscribeIcon,
  TradeIcon,
} from '../../../ui/icons';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';

/** The newest news items, in their own chunk (src/news): the home chunk stays light. */
const NewsSection = lazy(() => import('../../../news/news-section'));

/** Bellwethers shown on the home screen: TSMC, Hon Hai, MediaTek. */
const HOME_SYMBOLS = ['2330', '2317', '2454'];

/**
 * The spec's home shortcuts in its order (product-spec §2 "Home shortcuts"; where each leads and
 * how the unlabeled ones are read: docs/glossary.md), then search, ETFs, dividends and the
 * watchlist. "Treasury stock" (read as 庫存股, the shares held) is left out: it opened the same
 * holdings list as "stock holdings", two tiles for one screen.
 */
const SHORTCUTS: { key: string; to: string; icon: ReactNode }[] = [
  { key: 'bidding', to: '/market/bidding', icon: <TradeIcon /> },
  { key: 'subscribe', to: '/market/subscribe', icon: <SubscribeIcon /> },
  { key: 'funds', to: '/user/FundingDetails', icon: <RecordsIcon /> },
  { key: 'deposit', to: '/user/recharge', icon: <DepositIcon /> },
  { key: 'withdraw', to: '/user/withdraw', icon: <DepositIcon /> },
  { key: 'service', to: '/user/service', icon: <ServiceIcon /> },
  { key: 'dayTrading', to: '/common/dayTrading', icon: <TradeIcon /> },
  { key: 'lending', to: '/common/lending', icon: <HoldingsIcon /> },
  { key: 'assets', to: '/wallet/index', icon: <RecordsIcon /> },
  { key: 'credit', to: '/user/credit', icon: <CreditIcon /> },
  { key: 'contracts', to: '/position/position?tab=terminated', icon: <RecordsIcon /> },
  { key: 'redeem', to: '/home/coupons', icon: <SubscribeIcon /> },
  { key: 'margin', to: '/common/margin', icon: <TradeIcon /> },
  { key: 'holdings', to: '/position/position?tab=holdings', icon: <HoldingsIcon /> },
  { key: 'member', to: '/user/usercenter', icon: <MineIcon /> },
  { key: 'search', to: '/home/searchIndex', icon: <SearchIcon /> },
  { key: 'etf', to: '/home/etf', icon: <EtfIcon /> },
  { key: 'dividend', to: '/common/dividend', icon: <RecordsIcon /> },
  { key: 'watchlist', to: '/market/favo', icon: <StarIcon /> },
];

/** The notices bell (unread count), a lazy chunk of its own (src/ui/notice-bell.tsx). */
const NoticeBell = lazy(() => import('../../../ui/notice-bell'));

/** The tags of the lazy sections' data: the news (src/news) and the bell's unread count. */
const sectionTags = api.enhanceEndpoints({ addTagTypes: ['News', 'Notices'] });

/**
 * Refetches everything the home screen shows: its own queries (`own`, awaited), and the lazy
 * sections' news and unread count through their tags; resolves when every query then running
 * has settled, so "loading" lasts until the screen is fresh.
 */
function useHomeRefresh(...own: Array<() => PromiseLike<unknown>>): () => Promise<unknown> {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  return async () => {
    dispatch(sectionTags.util.invalidateTags(['News', 'Notices']));
    await Promise.all(own.map((refetch) => refetch()));
    await Promise.all(dispatch(api.util.getRunningQueriesThunk()));
  };
}

function IndexCard() {
  const { t } = useTranslation();
  const { data } = useIndicesQuery();
  const ix = data?.items.find((i) => i.code === 'TAIEX' || i.code === 't00') ?? data?.items[0];
  if (!ix) return null;
  const change = ix.lastMinor - ix.prevCloseMinor;
  const color = changeColor(change);
  return (
    <section className="card index-card" data-testid="home-index">
      <div className="index-card-head">
        <span className="index-name">{t(`indexName.${ix.code}`, { defaultValue: ix.name })}</span>
        <span className="muted small">{t('market.indexDate', { date: ix.date })}</span>
      </div>
      <div className="index-card-last" style={{ color }}>
        {formatMinor(ix.lastMinor)}
      </div>
      <div style={{ color }}>
        {formatSignedMinor(change)} ({formatPercent(change, ix.prevCloseMinor)})
      </div>
      <div className="muted small">{t('market.indexOfficial')}</div>
    </section>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: snap, refetch: refetchQuotes } = useQuotesQuery(HOME_SYMBOLS);
  const { refetch: refetchIndices } = useIndicesQuery();
  useSeedQuotes(snap?.items);
  useQuoteStream(HOME_SYMBOLS);
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);
  const refresh = useHomeRefresh(refetchIndices, refetchQuotes);

  return (
    <Page
      title={t('app.name')}
      back={false}
      right={
        <Suspense fallback={null}>
          <NoticeBell />
        </Suspense>
      }
    >
      <PullRefresh onRefresh={refresh}>
        <MarketStatusBar replayDate={snap?.items[0]?.replayDate} />
        <IndexCard />
        <section className="card">
          <Grid columns={3} gap={8}>
            {SHORTCUTS.map((s) => (
              <Grid.Item key={s.key} onClick={() => navigate(s.to)} data-testid={`shortcut-${s.key}`}>
                <div className="shortcut">
                  <span className="shortcut-icon">{s.icon}</span>
                  <span className="shortcut-label">{t(`home.shortcut.${s.key}`)}</span>
                </div>
              </Grid.Item>
            ))}
          </Grid>
        </section>
        <section className="card">
          <div className="card-title-row">
            <h3 className="card-title">{t('home.quotes')}</h3>
            <span className="nav-link" role="link" onClick={() => navigate('/market/market')}>
              {t('common.more')}
            </span>
          </div>
          {HOME_SYMBOLS.map((s) => (
            <QuoteRow key={s} symbol={s} onOpen={open} />
          ))}
        </section>
        <Suspense fallback={null}>
          <NewsSection />
        </Suspense>
      </PullRefresh>
    </Page>
  );
}
